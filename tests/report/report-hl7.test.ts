import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import { parseAck } from '../../server/src/services/report/hl7/send-mllp.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { listenMllp, type TMllpListener } from '../helpers/mllp-listener.js';
import { sessionCaller } from '../helpers/session-caller.js';
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

const field = (message: string, segment: string, index: number, nth = 0): string | undefined =>
  message
    .split('\r')
    .filter((s) => s.startsWith(`${segment}|`))
    .at(nth)
    ?.split('|')[index];

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
      },
    });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  test('signed: OBR with the accession, OBX lines, status F, retried after an error ACK; an addendum goes as C', async () => {
    const [study] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    await t.deps.db
      .update(dicomInstances)
      .set({
        tags: {
          AccessionNumber: 'ACC-41|X',
          PatientID: 'PID-41',
          PatientName: 'REED^ALICE',
          StudyInstanceUID: '1.2.3.41',
          StudyDate: '20261102',
        },
      })
      .where(eq(dicomInstances.id, study!));
    const [row] = await t.deps.db
      .select({ analysisId: dicomInstances.analysisId })
      .from(dicomInstances)
      .where(eq(dicomInstances.id, study!));
    const caller = sessionCaller(t.deps, u);
    const analysisId = row!.analysisId!;
    const signed = await caller.report.sign({ analysisId });
    assert.deepEqual(
      signed.deliveries,
      [{ destination: 'hl7', carries: 'signature', status: 'pending', attempts: 0, lastError: null }],
      'the signature answers at once, the delivery queued',
    );
    await until(() => listener.received.length >= 2);
    const shown = await untilAsync(async () => {
      const r = await caller.report.get({ analysisId });
      return r.deliveries[0]?.status === 'delivered' ? r.deliveries : null;
    });
    assert.deepEqual(shown, [
      { destination: 'hl7', carries: 'signature', status: 'delivered', attempts: 2, lastError: null },
    ]);
    const [refused, accepted] = listener.received;
    assert.equal(field(refused!, 'OBR', 3), field(accepted!, 'OBR', 3), 'the same report sent again');
    assert.notEqual(field(refused!, 'MSH', 9), field(accepted!, 'MSH', 9), 'each attempt its own control id');
    const msg = accepted!;
    assert.equal(field(msg, 'MSH', 8), 'ORU^R01^ORU_R01');
    assert.equal(field(msg, 'MSH', 11), '2.5.1');
    assert.equal(field(msg, 'PID', 3), 'PID-41');
    assert.equal(field(msg, 'PID', 5), 'REED\\S\\ALICE', 'delimiters escaped');
    assert.equal(field(msg, 'OBR', 3), 'ACC-41\\F\\X');
    assert.equal(field(msg, 'OBR', 25), 'F');
    assert.equal(field(msg, 'OBR', 32), u.user.name);
    const obx = msg.split('\r').filter((s) => s.startsWith('OBX|'));
    assert.ok(obx.length > 5);
    assert.ok(obx.every((s) => s.split('|')[2] === 'TX' && s.split('|')[11] === 'F'));
    const text = obx.map((s) => s.split('|')[5]).join('\n');
    assert.match(text, /^EXAMINATION:\n/);
    assert.match(text, /IMPRESSION:\n1\. Mass: 90% Likely/);
    assert.match(text, new RegExp(`Signed by ${u.user.name} at `));

    await caller.report.addAddendum({ analysisId, text: 'Mass is the known lesion.' });
    await until(() => listener.received.length >= 3);
    const amended = listener.received[2]!;
    assert.equal(field(amended, 'OBR', 25), 'C');
    assert.match(amended, /OBX\|\d+\|TX\|[^|]*\|\d+\|Mass is the known lesion\.\|\|\|\|\|\|C\|/);
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

  test('an ACK is read from its MSA segment', () => {
    assert.deepEqual(parseAck('MSH|^~\\&|X\rMSA|AR|1|Bad\r'), { code: 'AR', text: 'Bad' });
    assert.equal(parseAck('MSH|^~\\&|X\r'), null);
  });
});
