import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import { MLLP_FAILURE } from '../../server/src/services/report/hl7/send-mllp.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { startHostilePeer, type THostilePeer, type TPeerMode } from '../helpers/hostile-mllp-peer.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { signAtRevision } from '../helpers/sign-report.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

const DEADLINE_MS = 1500;
/** Picking the job up, loading the report and writing the row, on a busy shared machine. */
const SLACK_MS = 8000;

/**
 * Issue 46 H2, M1, M2 (and the "no reason recorded" of issue 49): the app's RIS is a real MLLP
 * peer of the test's own that misbehaves on purpose. Each attempt must end with its own code
 * within the exchange's absolute deadline, the report's API must never show an attempt without
 * its reason (the panel's "no reason recorded"), `/healthz` (over real HTTP) keeps answering meanwhile, and after all of it a
 * delivery still goes through: the delivery worker was never filled.
 */
describe('a hostile RIS: each misbehaviour fails its attempt in time, with its code', () => {
  let t: TestApp;
  let u: TTestUser;
  let peer: THostilePeer;
  let base = '';
  const healthz: number[] = [];

  beforeAll(async () => {
    peer = await startHostilePeer();
    t = await createTestApp({
      background: true,
      env: {
        REPORT_HL7_DESTINATION: `127.0.0.1:${peer.port}`,
        REPORT_HL7_TIMEOUT_MS: String(DEADLINE_MS),
        REPORT_HL7_ATTEMPTS: '1',
        REPORT_HL7_BACKOFF_MS: '100',
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
    if (healthz.length)
      console.log(
        `/healthz during the hostile peers: ${healthz.length} requests, max ${Math.max(...healthz)} ms, median ${healthz.sort((a, b) => a - b)[Math.floor(healthz.length / 2)]} ms`,
      );
  });

  const signStudy = async () => {
    const [study] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .update(dicomInstances)
      .set({ tags: { PatientID: 'PEER-46', PatientName: 'PEER^PAT' } })
      .where(eq(dicomInstances.id, study!))
      .returning({ analysisId: dicomInstances.analysisId });
    await signAtRevision(sessionCaller(t.deps, u), row!.analysisId!);
    return row!.analysisId!;
  };

  /**
   * Waits for the delivery to settle, probing /healthz and the report's API every 100 ms: the API
   * must never show an attempt without its reason (what the panel read "no reason recorded").
   */
  const settle = async (analysisId: string, ms: number) => {
    const caller = sessionCaller(t.deps, u);
    const end = Date.now() + ms;
    for (;;) {
      const started = performance.now();
      const res = await fetch(`${base}/healthz`);
      healthz.push(Math.round(performance.now() - started));
      assert.equal(res.status, 200);
      const [d] = (await caller.report.get({ analysisId })).deliveries;
      assert.ok(d, 'a delivery recorded');
      assert.ok(!(d.attempts > 0 && d.lastError === null && d.status !== 'delivered'), 'an attempt without its reason');
      if (d.status !== 'pending') return d;
      if (Date.now() > end) throw new Error(`still pending after ${ms} ms: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const cases: [TPeerMode, string, string][] = [
    ['close', 'closes without an ACK', MLLP_FAILURE.closed],
    ['tls', 'speaks TLS', MLLP_FAILURE.closed],
    ['trickle', 'trickles its ACK one byte a second', MLLP_FAILURE.deadline],
    ['flood', 'sends 20 MB without FS', MLLP_FAILURE.tooLarge],
    ['wrong-id', 'acknowledges another control id', MLLP_FAILURE.otherMessage],
    ['unframed', 'answers without MLLP framing', MLLP_FAILURE.unframed],
  ];
  for (const [mode, what, code] of cases) {
    test(`a RIS that ${what}: failed with "${code}" within the deadline`, async () => {
      peer.mode = mode;
      const mark = healthz.length;
      const started = Date.now();
      const analysisId = await signStudy();
      const d = await settle(analysisId, DEADLINE_MS + SLACK_MS);
      const elapsed = Date.now() - started;
      const probes = healthz.splice(mark);
      assert.equal(d.status, 'failed');
      assert.equal(d.lastError, code);
      assert.equal(d.attempts, 1);
      assert.ok(peer.connections[mode] >= 1, 'the peer was reached');
      console.log(
        `${mode}: failed "${code}" ${elapsed} ms after signing; /healthz max ${Math.max(...probes)} ms of ${probes.length}`,
      );
      healthz.push(...probes);
    });
  }

  test('three trickling exchanges at once, then a working RIS: the next delivery goes through, the worker never filled', async () => {
    peer.mode = 'trickle';
    const before = peer.connections.trickle;
    const slow = await Promise.all([signStudy(), signStudy(), signStudy()]);
    // The worker (concurrency 2) holds two trickling exchanges before the RIS recovers.
    const end = Date.now() + 10_000;
    while (peer.connections.trickle < before + 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    peer.mode = 'ack';
    const analysisId = await signStudy();
    const d = await settle(analysisId, 3 * DEADLINE_MS + 2 * SLACK_MS);
    assert.equal(d.status, 'delivered');
    // The trickling ones end at their own deadlines, failed with the code (one the worker took
    // only after the RIS recovered may have been delivered).
    const ends = await Promise.all(slow.map((id) => settle(id, 2 * DEADLINE_MS + SLACK_MS)));
    const trickled = ends.filter((e) => e.status === 'failed');
    assert.ok(trickled.length >= 2, 'the worker held at least two trickling exchanges');
    assert.ok(trickled.every((e) => e.lastError === MLLP_FAILURE.deadline));
    const last = peer.received.at(-1)!;
    assert.equal(last.mode, 'ack');
    assert.equal(last.message.getSegment('MSH')?.getField(9)?.toString(), 'ORU^R01^ORU_R01');
  });
});
