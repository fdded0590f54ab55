import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, dicomInstances, reportDeliveries, stowForwarding, users } from '../../server/src/db/schema.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { generatedAccession } from '../../server/src/services/report/hl7/load-oru-study.js';
import { sampleResult, workerResultOf } from '../analysis/support/fixtures.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { bearer, createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { hl7Value, listenMllp, oruText, type TMllpListener } from '../helpers/mllp-listener.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { addendumAtRevision, signAtRevision } from '../helpers/sign-report.js';
import { related } from '../helpers/stow-body.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function untilAsync<T>(probe: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Issues 41, 46 (H1, H3, L1) and 49 (item 3): every message the listener gets is parsed by @medplum/core's Hl7Message. */
describe('a signed report reaches the RIS as HL7 v2.5.1 ORU^R01 over MLLP', () => {
  let t: TestApp;
  let u: TTestUser;
  let listener: TMllpListener;
  beforeAll(async () => {
    // The first message is refused (AE): the server must try again and be accepted.
    listener = await listenMllp(0, ['AE']);
    // The report-delivery queue's consumer runs with the server's background services.
    t = await createTestApp({
      background: true,
      env: {
        REPORT_HL7_DESTINATION: `127.0.0.1:${listener.port}`,
        REPORT_HL7_TIMEOUT_MS: '2000',
        REPORT_HL7_BACKOFF_MS: '100',
        REPORT_HL7_SENDING_APP: 'CXR_READER',
        REPORT_HL7_SENDING_FACILITY: 'ST_MARY_RAD',
        REPORT_HL7_RECEIVING_APP: 'EPIC_RIS',
        REPORT_HL7_RECEIVING_FACILITY: 'ST_MARY',
        REPORT_HL7_PATIENT_ID_AUTHORITY: 'STMARY_MRN',
      },
    });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  const deliveriesOf = (analysisId: string) =>
    t.deps.db.select().from(reportDeliveries).where(eq(reportDeliveries.analysisId, analysisId));
  const delivered = (analysisId: string) =>
    untilAsync(async () => {
      const rows = await deliveriesOf(analysisId);
      return rows.length && rows.every((d) => d.status === 'delivered') ? rows : null;
    });

  test('signed: MSH-3..6 configured, PID-3 with its authority, PID-5 as XPN, OBR-20 the study UID, one control id across retries; an addendum goes as C', async () => {
    const [study] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .update(dicomInstances)
      .set({
        studyInstanceUid: '1.2.826.0.1.3680043.10.41.9',
        tags: {
          AccessionNumber: 'ACC-41|X',
          PatientID: 'PID-41',
          PatientName: 'REED^ALICE^MARIE^DR^JR=リード^アリス',
          StudyDate: '20261102',
        },
      })
      .where(eq(dicomInstances.id, study!))
      .returning({ analysisId: dicomInstances.analysisId });
    const caller = sessionCaller(t.deps, u);
    const analysisId = row!.analysisId!;
    const signed = await signAtRevision(caller, analysisId);
    assert.deepEqual(
      signed.deliveries,
      [{ destination: 'hl7', carries: 'signature', status: 'pending', attempts: 0, lastError: null }],
      'the signature answers at once, the delivery queued',
    );
    await until(() => listener.messages.length >= 2);
    const shown = await untilAsync(async () => {
      const r = await caller.report.get({ analysisId });
      return r.deliveries[0]?.status === 'delivered' ? r.deliveries : null;
    });
    assert.deepEqual(shown, [
      { destination: 'hl7', carries: 'signature', status: 'delivered', attempts: 2, lastError: null },
    ]);
    const [refused, accepted] = listener.messages;
    assert.equal(hl7Value(refused!, 'OBR', 3), hl7Value(accepted!, 'OBR', 3), 'the same report sent again');
    const [delivery] = await deliveriesOf(analysisId);
    assert.equal(
      hl7Value(refused!, 'MSH', 10),
      hl7Value(accepted!, 'MSH', 10),
      'one control id per delivery: a RIS that filed a slow attempt sees the retry as a duplicate',
    );
    assert.equal(hl7Value(accepted!, 'MSH', 10), delivery!.id.replace(/-/g, '').slice(0, 20).toUpperCase());
    const msg = accepted!;
    assert.deepEqual(
      [3, 4, 5, 6].map((f) => hl7Value(msg, 'MSH', f)),
      ['CXR_READER', 'ST_MARY_RAD', 'EPIC_RIS', 'ST_MARY'],
    );
    assert.equal(msg.getSegment('MSH')!.getField(9)!.toString(), 'ORU^R01^ORU_R01');
    assert.equal(hl7Value(msg, 'MSH', 12), '2.5.1');
    assert.deepEqual(
      [1, 4, 5].map((c) => hl7Value(msg, 'PID', 3, c)),
      ['PID-41', 'STMARY_MRN', 'MR'],
      'PID-3: the DICOM PatientID under the configured assigning authority',
    );
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((c) => hl7Value(msg, 'PID', 5, c)),
      ['REED', 'ALICE', 'MARIE', 'JR', 'DR'],
      'PID-5: the PN alphabetic group as XPN components (family, given, middle, suffix, prefix)',
    );
    assert.equal(hl7Value(msg, 'OBR', 3), 'ACC-41|X', 'the accession, its | escaped as data');
    assert.equal(msg.getSegment('OBR')!.getField(3)!.toString(), 'ACC-41\\F\\X');
    assert.equal(hl7Value(msg, 'OBR', 20), '1.2.826.0.1.3680043.10.41.9', 'OBR-20: the stored Study Instance UID');
    assert.equal(hl7Value(msg, 'OBR', 25), 'F');
    assert.equal(
      msg.getSegment('OBR')!.getField(32)!.getComponent(1, 1),
      u.user.name,
      'OBR-32: the signer as the NDL name',
    );
    const obx = msg.getAllSegments('OBX');
    assert.ok(obx.length > 5);
    assert.ok(obx.every((s) => s.getField(2)!.toString() === 'TX' && s.getField(11)!.toString() === 'F'));
    const text = oruText(msg);
    assert.match(text, /^EXAMINATION:\n/);
    assert.match(
      text,
      /IMPRESSION:\n1\. Mass\.\n/,
      "the signed impression in the draft's words (issue 48: no percentages)",
    );
    assert.match(text, new RegExp(`Signed by ${u.user.name} at `));

    await addendumAtRevision(caller, analysisId, 'Mass is the known lesion.');
    await until(() => listener.messages.length >= 3);
    const amended = listener.messages[2]!;
    assert.equal(hl7Value(amended, 'OBR', 25), 'C');
    assert.match(oruText(amended), /\nMass is the known lesion\.\n/);
    assert.ok(amended.getAllSegments('OBX').every((s) => s.getField(11)!.toString() === 'C'));
    assert.notEqual(hl7Value(amended, 'MSH', 10), hl7Value(msg, 'MSH', 10), 'the addendum is its own delivery');
    const both = await untilAsync(async () => {
      const r = await caller.report.get({ analysisId });
      return r.deliveries[1]?.status === 'delivered' ? r.deliveries : null;
    });
    assert.deepEqual(
      both.map((d) => [d.carries, d.status, d.attempts]),
      [
        ['signature', 'delivered', 2],
        ['addendum', 'delivered', 1],
      ],
    );
  });

  test("H1: a walk-in account's STOW-RS study carrying another patient's ids, signed: no HL7 delivery, nothing at the RIS", async () => {
    const walkIn = await createUser(t.deps);
    const { key } = await createApiKey({ db: t.deps.db, meta: null, userId: walkIn.user.id, name: 'script' });
    const dx = await buildDxInstance({ patientId: 'MRN-VICTIM-7', patientName: 'VICTIM^VERA', index: 2 });
    const body = related([dx.bytes]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(key) },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [film] = await t.deps.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid));
    assert.ok(film?.analysisId);
    await finalizeAnalysis({
      ...t.deps,
      job: { analysisId: film.analysisId, result: workerResultOf(sampleResult()), heatmap: null },
    });
    const before = listener.messages.length;
    const signed = await signAtRevision(sessionCaller(t.deps, walkIn), film.analysisId);
    assert.equal(signed.status, 'final', 'the signature stays in the product');
    assert.deepEqual(signed.deliveries, [], 'no delivery recorded');
    assert.deepEqual(await deliveriesOf(film.analysisId), []);

    // A study whose results may leave, signed after it, arrives: the walk-in's never did.
    const [other] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .select({ analysisId: dicomInstances.analysisId })
      .from(dicomInstances)
      .where(eq(dicomInstances.id, other!));
    await signAtRevision(sessionCaller(t.deps, u), row!.analysisId!);
    await delivered(row!.analysisId!);
    const since = listener.messages.slice(before);
    assert.equal(since.length, 1);
    assert.notEqual(hl7Value(since[0]!, 'PID', 3), 'MRN-VICTIM-7');
    assert.ok(listener.received.every((m) => !m.includes('MRN-VICTIM-7') && !m.includes('VICTIM')));
  });

  test('H1, H3, item 3: a browser upload (space listed by a site admin): PID-3 never empty, an accession generated; FS and control characters in the names leave one intact ORU', async () => {
    const clinician = await createUser(t.deps);
    await t.deps.db.insert(stowForwarding).values({ userId: clinician.user.id });
    // The signer's display name with control characters, as an older row or another client may hold it.
    await t.deps.db.update(users).set({ name: 'Dr Vera\x0b Lane\x07\x1c' }).where(eq(users.id, clinician.user.id));
    const { chat } = await createChat(t.deps, clinician.user.id, {
      patient: { full_name: 'Ruth Fs-Ending\x1c', age: '61', medical_history: 'None' },
    });
    const [analysis] = await t.deps.db
      .insert(analyses)
      .values({
        userId: clinician.user.id,
        chatId: chat.id,
        status: 'completed',
        stage: 'done',
        result: resultOf(finding('effusion', 0.8, 0.5, 'positive')) as unknown as Record<string, unknown>,
      })
      .returning({ id: analyses.id });
    const analysisId = analysis!.id;
    const before = listener.messages.length;
    await signAtRevision(sessionCaller(t.deps, clinician), analysisId);
    await delivered(analysisId);
    const since = listener.received.slice(before);
    assert.equal(since.length, 1, 'one message, not a frame cut short by FS');
    // eslint-disable-next-line no-control-regex -- only CR, the segment end, may appear raw
    assert.doesNotMatch(since[0]!, /[\x00-\x0c\x0e-\x1f\x7f]/, 'every control character escaped');
    const msg = listener.messages.at(-1)!;
    assert.deepEqual(
      [1, 4, 5].map((c) => hl7Value(msg, 'PID', 3, c)),
      [chat.id, 'CXR_READER', 'PI'],
      "PID-3: the chat's patient under this installation's authority",
    );
    assert.equal(hl7Value(msg, 'PID', 5, 1), 'Fs-Ending');
    assert.equal(hl7Value(msg, 'PID', 5, 2), 'Ruth');
    assert.equal(hl7Value(msg, 'OBR', 3), generatedAccession(analysisId));
    assert.match(hl7Value(msg, 'OBR', 3), /^CXR[0-9A-F]{13}$/);
    assert.equal(hl7Value(msg, 'OBR', 20), '', 'a browser upload has no Study Instance UID');
    const text = oruText(msg);
    assert.match(text, /^EXAMINATION:\n[\s\S]*\nIMPRESSION:\n[\s\S]*\nSigned by /);
    assert.ok(text.includes('\nSigned by Dr Vera\x0b Lane\x07\x1c at '), 'the text complete, to its last line');
    assert.match(text, /Effusion/);
  });
});
