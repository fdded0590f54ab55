import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { analyses, chats, dicomInstances, patientProfiles } from '../../server/src/db/schema.js';
import { QueueName } from '@contracts/queues.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { PARAMETRIC_MAP_SOP_CLASS } from '../../server/src/services/dicom-node/build-parametric-map.js';
import { DICOM_SEND_QUEUE } from '../../server/src/services/dicom-node/start-dicom-services.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { freePort, startOrthanc, type TOrthanc } from '../helpers/start-orthanc.js';
import { confirmOwnerForTest } from './support/node-owner.js';
import {
  startAnalysisWorker,
  testModelDir,
  type TestAnalysisWorker,
} from '../analysis/support/start-analysis-worker.js';
import { Queue } from 'bullmq';

const run = promisify(execFile);
const NODE_AE = 'CXR_AI';
const PATIENT_NAME = 'ROUNDTRIP^PATIENCE';

/** Waits for a condition (generous limit: two cores shared with other suites); no timing is asserted. */
async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  limitMs = 120_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the DICOM node with Orthanc as the PACS and dcmtk as a second sender', () => {
  let t: TestApp;
  let owner: TTestUser;
  let w: TestAnalysisWorker;
  let orthanc: TOrthanc;
  let nodePort: number;
  const dir = mkdtempSync(join(tmpdir(), 'dicom-node-'));
  const ownerEmail = `pacs-owner-${Date.now()}@example.org`;

  const instanceOf = async (sop: string) =>
    (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, sop)))[0];
  const storescu = async (file: string, aet = 'STORESCU') =>
    run('storescu', ['-aet', aet, '-aec', NODE_AE, '127.0.0.1', String(nodePort), file]);
  const writeInstance = async (name: string, opts: Parameters<typeof buildDxInstance>[0] = {}) => {
    const built = await buildDxInstance(opts);
    const file = join(dir, name);
    writeFileSync(file, built.bytes);
    return { ...built, file };
  };

  beforeAll(async () => {
    nodePort = await freePort();
    orthanc = await startOrthanc({ node: { ae: NODE_AE, port: nodePort } });
    t = await createTestApp({
      background: true,
      env: {
        MODEL_DIR: testModelDir(),
        ANALYSIS_TIMEOUT_MS: '60000',
        DICOM_PORT: String(nodePort),
        DICOM_AE_TITLE: NODE_AE,
        DICOM_ALLOWED_CALLERS: `${orthanc.aet}@127.0.0.1,STORESCU@127.0.0.1`,
        DICOM_DESTINATION: `${orthanc.aet}@127.0.0.1:${orthanc.dicomPort}`,
        DICOM_OWNER_EMAIL: ownerEmail,
        DICOM_SEND_ATTEMPTS: '3',
        DICOM_SEND_BACKOFF_MS: '200',
      },
    });
    owner = await createUser(t.deps, { email: ownerEmail });
    await confirmOwnerForTest(t, owner.user.id);
    w = startAnalysisWorker(t.deps);
    // The node listens once the background services are up.
    await until(
      'the node',
      async () =>
        await run('echoscu', ['-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(nodePort)]).then(
          () => true,
          () => false,
        ),
    );
  });
  afterAll(async () => {
    await w?.close();
    await t?.close();
    await orthanc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('Orthanc sends a DX chest film; the SR and the secondary capture come back into its study and pass dciodvfy and dsrdump', async () => {
    const dx = await buildDxInstance({ patientName: PATIENT_NAME, patientId: 'RT-1' });
    const uploaded = await orthanc.rest<{ ID: string }>('/instances', { method: 'POST', body: dx.bytes });
    await orthanc.rest(`/modalities/cxr/store`, { method: 'POST', body: uploaded.ID });

    const row = await until('the instance to be sent', async () => {
      const r = await instanceOf(dx.sopInstanceUid);
      return r?.status === 'sent' ? r : null;
    });
    assert.equal(row.userId, owner.user.id);
    assert.equal(row.callingAe, orthanc.aet);
    assert.ok(row.analysisId);
    const [analysis] = await t.deps.db.select().from(analyses).where(eq(analyses.id, row.analysisId));
    assert.equal(analysis?.status, 'completed', 'the same analysis flow as an upload');
    const [chat] = await t.deps.db.select().from(chats).where(eq(chats.id, analysis!.chatId));
    assert.equal(chat?.profileId, row.profileId);
    const [profile] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, row.profileId!));
    assert.equal(profile?.customFields['DICOM Patient ID'], 'RT-1');

    const studies = await orthanc.rest<string[]>('/studies');
    assert.equal(studies.length, 1, 'the results are filed in the source study');
    const instances = await orthanc.rest<{ ID: string; MainDicomTags: { SOPInstanceUID: string } }[]>(
      `/studies/${studies[0]}/instances`,
    );
    // The film, the SC, the SR and one Parametric Map per flagged finding's kept heatmap (issue 42).
    const maps = ZStoredResult.parse(analysis!.result).heatmaps.filter((h) => h.grid).length;
    assert.equal(instances.length, 3 + maps);
    const modalities: string[] = [];
    let parametricMaps = 0;
    for (const i of instances) {
      if (i.MainDicomTags.SOPInstanceUID === dx.sopInstanceUid) continue;
      const tags = await orthanc.rest<Record<string, string>>(`/instances/${i.ID}/simplified-tags`);
      modalities.push(tags.Modality!);
      assert.equal(tags.PatientID, 'RT-1');
      assert.equal(tags.StudyInstanceUID, dx.studyUid);
      const file = join(dir, `${i.ID}.dcm`);
      writeFileSync(file, await orthanc.restBytes(`/instances/${i.ID}/file`));
      const v = await run('dciodvfy', [file]).catch((e: { stdout: string; stderr: string }) => e);
      assert.doesNotMatch(`${v.stdout}${v.stderr}`, /^Error/m, `dciodvfy on the ${tags.Modality}`);
      if (tags.Modality === 'SR') {
        const dump = await run('dsrdump', ['-v', '+Pt', file]);
        assert.doesNotMatch(dump.stderr, /^E:/m);
        assert.match(dump.stdout, /Comprehensive 3D SR Document/);
        assert.match(dump.stdout, /"Imaging Measurement Report"\)=SEPARATE> {2}# TID 1500/);
        assert.match(dump.stdout, /# TID 1501/);
        assert.match(dump.stdout, /Algorithm Version/);
        assert.match(dump.stdout, /Certainty of Finding/);
        assert.match(dump.stdout, /Operating threshold/);
      } else if (tags.SOPClassUID === PARAMETRIC_MAP_SOP_CLASS) {
        parametricMaps++;
        assert.equal(tags.BurnedInAnnotation, 'NO');
      } else {
        assert.equal(tags.BurnedInAnnotation, 'YES');
        assert.match(tags.SOPClassUID!, /^1\.2\.840\.10008\.5\.1\.4\.1\.1\.7$/);
        // Orthanc's JSON leaves long texts out: read the legend's copy from the file.
        const comments = await run('dcmdump', ['+P', 'ImageComments', file]);
        assert.match(comments.stdout, /Heatmap: |No heatmap: /);
      }
    }
    assert.deepEqual(modalities.sort(), ['OT', ...Array<string>(maps).fill('OT'), 'SR']);
    assert.equal(parametricMaps, maps);

    // PHI: the queues carry ids only.
    const sendQueue = new Queue(DICOM_SEND_QUEUE, { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX });
    const analysisQueue = new Queue(QueueName.Analysis, {
      connection: t.deps.redis,
      prefix: t.deps.config.QUEUE_PREFIX,
    });
    for (const q of [sendQueue, analysisQueue]) {
      const jobs = await q.getJobs(['completed', 'failed', 'waiting', 'delayed', 'active']);
      assert.ok(jobs.length > 0);
      for (const j of jobs) assert.doesNotMatch(JSON.stringify(j.data), /ROUNDTRIP|PATIENCE|RT-1/);
      await q.close();
    }
  });

  test('a film the image check refuses stays skipped with its reason, and a "not analysed" SR reaches its study', async () => {
    const blank = await writeInstance('blank.dcm', { patientId: 'BLANK-1', blank: true });
    await storescu(blank.file);
    const row = await until('the refused film to be reported', async () => {
      const r = await instanceOf(blank.sopInstanceUid);
      return r?.sentAt ? r : null;
    });
    assert.equal(row.status, 'skipped');
    assert.match(row.reason ?? '', /^Not analysed: /);
    const studies = await orthanc.rest<string[]>('/studies');
    const details = await Promise.all(
      studies.map((id) => orthanc.rest<{ ID: string; MainDicomTags: { StudyInstanceUID: string } }>(`/studies/${id}`)),
    );
    const study = details.find((d) => d.MainDicomTags.StudyInstanceUID === blank.studyUid);
    assert.ok(study, 'the SR is filed in the refused film study');
    const instances = await orthanc.rest<{ ID: string }[]>(`/studies/${study.ID}/instances`);
    assert.equal(instances.length, 1, 'the SR alone: the film itself was sent to the node, not to Orthanc');
    const file = join(dir, 'not-analysed.dcm');
    writeFileSync(file, await orthanc.restBytes(`/instances/${instances[0]!.ID}/file`));
    const dump = await run('dsrdump', ['-v', '+Pt', file]);
    assert.match(dump.stdout, /# TID 1500/);
    assert.match(dump.stdout, /"Comment"\)="Not analysed: /);
  });

  test('echoscu and storescu (dcmtk) as a second sender; a CT is skipped with its reason; the same instance twice makes one analysis', async () => {
    await run('echoscu', ['-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(nodePort)]);
    const ct = await writeInstance('ct.dcm', { modality: 'CT', bodyPart: 'CHEST', view: null, patientId: 'CT-1' });
    await storescu(ct.file);
    const skipped = await until('the CT to be recorded', () => instanceOf(ct.sopInstanceUid));
    assert.equal(skipped.status, 'skipped');
    assert.match(skipped.reason ?? '', /Modality CT is not a chest radiograph/);
    assert.equal(skipped.analysisId, null);

    const lateral = await writeInstance('lat.dcm', { view: 'LL', patientId: 'LAT-1' });
    await storescu(lateral.file);
    assert.match((await until('the lateral', () => instanceOf(lateral.sopInstanceUid))).reason ?? '', /not frontal/);

    const dx = await writeInstance('dx.dcm', { patientId: 'DUP-1', index: 1 });
    await storescu(dx.file);
    await storescu(dx.file);
    const first = await until('the DX to be queued', async () => {
      const r = await instanceOf(dx.sopInstanceUid);
      return r?.analysisId ? r : null;
    });
    const rows = await t.deps.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid));
    assert.equal(rows.length, 1);
    const forChat = await t.deps.db
      .select()
      .from(analyses)
      .innerJoin(chats, eq(chats.id, analyses.chatId))
      .where(and(eq(analyses.userId, owner.user.id), eq(chats.profileId, first.profileId!)));
    assert.equal(forChat.length, 1, 'one analysis for the instance sent twice');
  });

  test('a calling AE that is not on the allow-list is refused at association', async () => {
    const refused = await run('echoscu', ['-aet', 'INTRUDER', '-aec', NODE_AE, '127.0.0.1', String(nodePort)]).then(
      () => null,
      (e: { stderr: string }) => e,
    );
    assert.ok(refused, 'echoscu fails');
    assert.match(refused.stderr, /Calling AE Title Not Recognized|Association Rejected/i);
    const wrongCalled = await run('echoscu', [
      '-aet',
      'STORESCU',
      '-aec',
      'SOMEONE',
      '127.0.0.1',
      String(nodePort),
    ]).then(
      () => null,
      (e: { stderr: string }) => e,
    );
    assert.ok(wrongCalled);
  });

  test('with the destination down the results are retried, then the instance is marked failed with the reason', async () => {
    await orthanc.stop();
    const dx = await writeInstance('down.dcm', { patientId: 'DOWN-1', index: 2 });
    await storescu(dx.file);
    const row = await until('the send to fail for good', async () => {
      const r = await instanceOf(dx.sopInstanceUid);
      return r?.status === 'failed' ? r : null;
    });
    assert.match(row.reason ?? '', /Could not send the results to ORTHANC@127\.0\.0\.1:\d+ after 3 tries/);
    assert.equal(row.sendAttempts, 3);
  });
});
