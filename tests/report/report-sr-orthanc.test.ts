import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import type { TReport } from '@contracts/schemas/report.js';
import { BASIC_TEXT_SR_SOP_CLASS } from '../../server/src/services/report/dicom/build-report-text-sr.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { freePort, startOrthanc, type TOrthanc } from '../helpers/start-orthanc.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { dciodvfyLines, readNaturalized } from '../helpers/validate-dicom.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

const STUDY_UID = '1.2.826.0.1.3680043.10.41.7001';
const FILM_UID = '1.2.826.0.1.3680043.10.41.7002';

type TNode = { ValueType?: string; TextValue?: string; ContentSequence?: TNode[] } & Record<string, unknown>;

/** Every TEXT value of an SR's tree, in document order. */
const texts = (n: TNode): string[] => [
  ...(n.ValueType === 'TEXT' && n.TextValue ? [n.TextValue] : []),
  ...(n.ContentSequence ?? []).flatMap(texts),
];

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('a signed report reaches Orthanc as a Basic Text SR in the study, its addendum as a second', () => {
  let t: TestApp;
  let u: TTestUser;
  let orthanc: TOrthanc | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'report-sr-pacs-'));

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { ...bearer(u.token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: TReport }).data;
  };
  /** The report SRs Orthanc holds, as naturalized data sets, by InstanceNumber. */
  const reportSrs = async () => {
    const pacs = orthanc!;
    const ids = await pacs.rest<string[]>('/instances');
    const out: TNode[] = [];
    for (const id of ids) {
      const bytes = await pacs.restBytes(`/instances/${id}/file`);
      const ds = readNaturalized(bytes) as TNode;
      if (ds.SOPClassUID !== BASIC_TEXT_SR_SOP_CLASS) continue;
      writeFileSync(join(dir, `${id}.dcm`), bytes);
      out.push({ ...ds, file: join(dir, `${id}.dcm`) });
    }
    return out.sort((a, b) => Number(a.InstanceNumber) - Number(b.InstanceNumber));
  };

  beforeAll(async () => {
    orthanc = await startOrthanc({ node: { ae: 'CXR_AI', port: await freePort() } });
    t = await createTestApp({
      background: true,
      env: {
        DICOM_AE_TITLE: 'CXR_AI',
        DICOM_DESTINATION: `${orthanc.aet}@127.0.0.1:${orthanc.dicomPort}`,
        DICOM_SEND_ATTEMPTS: '3',
        DICOM_SEND_BACKOFF_MS: '200',
      },
    });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t?.close();
    await orthanc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A study from the network whose results go back to the PACS, its film in STUDY_UID. */
  const seedStudy = async (sopInstanceUid: string) => {
    const [instance] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .update(dicomInstances)
      .set({
        sopInstanceUid,
        sopClassUid: '1.2.840.10008.5.1.4.1.1.1.1',
        studyInstanceUid: STUDY_UID,
        tags: { PatientName: 'PACS^PETRA', PatientID: 'SR-PACS-1', AccessionNumber: 'ACC-SR-1', StudyDate: '20261128' },
      })
      .where(eq(dicomInstances.id, instance!))
      .returning({ analysisId: dicomInstances.analysisId });
    return row!.analysisId!;
  };

  test('signed through the API: VERIFIED, the radiologist verifying, the study UID and the text; the addendum names it', async () => {
    const url = `/api/analyses/${await seedStudy(FILM_UID)}/report`;

    const signed = await api('POST', `${url}/sign`, { revision: (await api('GET', url)).revision });
    assert.equal(signed.status, 'final');
    assert.deepEqual(
      signed.deliveries.map((d) => [d.destination, d.status]),
      [['dicom', 'pending']],
    );
    const [first] = await until('the report SR at the PACS', async () => {
      const srs = await reportSrs();
      return srs.length >= 1 ? srs : null;
    });
    assert.equal(first!.StudyInstanceUID, STUDY_UID, 'filed in the analysed study');
    assert.equal(first!.PatientID, 'SR-PACS-1');
    assert.equal(first!.AccessionNumber, 'ACC-SR-1');
    assert.equal(first!.VerificationFlag, 'VERIFIED');
    assert.equal(first!.CompletionFlag, 'COMPLETE');
    const verifiers = first!.VerifyingObserverSequence as {
      VerifyingObserverName: unknown;
      VerificationDateTime: string;
    }[];
    assert.equal(verifiers.length, 1);
    assert.match(JSON.stringify(verifiers[0]!.VerifyingObserverName), new RegExp(u.user.name));
    const signedAt = new Date(signed.signedAt!).toISOString().replace(/[-:T]/g, '').slice(0, 14);
    assert.equal(verifiers[0]!.VerificationDateTime.trim(), `${signedAt}+0000`);
    const text = texts(first!).join('\n');
    assert.ok(text.includes(signed.sections.impression.replace(/\n/g, '\r\n')), 'the impression as signed');
    assert.ok(text.includes(signed.sections.findings.split('\n')[0]!), 'the findings');
    assert.deepEqual(
      (await dciodvfyLines(first!.file as string)).filter((l) => /^Error/.test(l)),
      [],
      'dciodvfy on the SR as the PACS holds it',
    );
    const studies = await orthanc!.rest<string[]>('/studies');
    assert.equal(studies.length, 1);
    const shown = await until('the delivery shown as delivered', async () => {
      const r = await api('GET', url);
      return r.deliveries[0]?.status === 'delivered' ? r.deliveries : null;
    });
    assert.deepEqual(shown[0], {
      destination: 'dicom',
      carries: 'signature',
      status: 'delivered',
      attempts: 1,
      lastError: null,
    });

    await api('POST', `${url}/addenda`, {
      text: 'The mass is the known lesion, unchanged.',
      revision: (await api('GET', url)).revision,
    });
    const srs = await until('the amended SR', async () => {
      const all = await reportSrs();
      return all.length >= 2 ? all : null;
    });
    assert.equal(srs.length, 2, 'a second instance, the first kept');
    const [, amended] = srs;
    assert.notEqual(amended!.SOPInstanceUID, first!.SOPInstanceUID);
    assert.equal(amended!.SeriesInstanceUID, first!.SeriesInstanceUID, 'the report’s series');
    assert.equal(amended!.StudyInstanceUID, STUDY_UID);
    const pred = amended!.PredecessorDocumentsSequence as {
      ReferencedSeriesSequence: { ReferencedSOPSequence: { ReferencedSOPInstanceUID: string }[] }[];
    }[];
    assert.equal(
      pred[0]!.ReferencedSeriesSequence[0]!.ReferencedSOPSequence[0]!.ReferencedSOPInstanceUID,
      first!.SOPInstanceUID,
    );
    const amendedText = texts(amended!).join('\n');
    assert.match(amendedText, /The mass is the known lesion, unchanged\./);
    assert.ok(amendedText.includes(signed.sections.impression.replace(/\n/g, '\r\n')), 'the full amended text');
    assert.equal((amended!.VerifyingObserverSequence as unknown[]).length, 2);
  });

  test('the PACS is away: the signature succeeds, the SR is retried and then recorded as failed', async () => {
    await orthanc!.stop();
    orthanc = undefined;
    const url = `/api/analyses/${await seedStudy(`${FILM_UID}.2`)}/report`;
    const signed = await api('POST', `${url}/sign`, { revision: (await api('GET', url)).revision });
    assert.equal(signed.status, 'final');
    const failed = await until('the last attempt', async () => {
      const r = await api('GET', url);
      return r.deliveries[0]?.status === 'failed' ? r.deliveries[0] : null;
    });
    assert.equal(failed.attempts, 3, 'DICOM_SEND_ATTEMPTS tries');
    // storeToPeer's code for a refused association (dcmjs-dimse gives no errno).
    assert.equal(failed.lastError, 'network error');
  });
});
