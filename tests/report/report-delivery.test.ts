import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances, reportDeliveries } from '../../server/src/db/schema.js';
import { QueueName } from '@contracts/queues.js';
import { LOST_JOB_CODE, startReportDelivery } from '../../server/src/services/report/delivery/start-report-delivery.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { signAtRevision } from '../helpers/sign-report.js';
import { listenMllp } from '../helpers/mllp-listener.js';
import { freePort } from '../helpers/start-orthanc.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_PATIENT_MARKER, TEST_PATIENT_NAMES } from '../helpers/test-patients.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

const PATIENT = TEST_PATIENT_NAMES[0];
const PATIENT_ID = `${TEST_PATIENT_MARKER}-ID-41`;

/** The RIS: a real MLLP listener whose refusals echo the patient's name in MSA-3, as some RIS do. */
const listen = (port: number, codes: string[]) => listenMllp(port, codes, `unknown patient ${PATIENT}`);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('report delivery to the RIS: a queued job, retried with backoff, its state recorded', () => {
  let t: TestApp;
  let u: TTestUser;
  let port: number;
  const logLines: string[] = [];

  /** A signed-ready study whose DICOM tags carry the patient (the ORU's PID names them). */
  const study = async () => {
    const [instance] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .update(dicomInstances)
      .set({ tags: { PatientName: PATIENT, PatientID: PATIENT_ID, AccessionNumber: 'ACC-D41' } })
      .where(eq(dicomInstances.id, instance!))
      .returning({ analysisId: dicomInstances.analysisId });
    return row!.analysisId!;
  };
  const deliveriesOf = (analysisId: string) =>
    t.deps.db.select().from(reportDeliveries).where(eq(reportDeliveries.analysisId, analysisId));

  beforeAll(async () => {
    port = await freePort();
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    t = await createTestApp({
      background: true,
      log: pino({ level: 'debug' }, sink),
      env: {
        REPORT_HL7_DESTINATION: `127.0.0.1:${port}`,
        REPORT_HL7_TIMEOUT_MS: '2000',
        REPORT_HL7_ATTEMPTS: '4',
        REPORT_HL7_BACKOFF_MS: '500',
      },
    });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
  });

  test('the RIS is down when the report is signed, then comes up: signed at once, delivered on a retry', async () => {
    const analysisId = await study();
    const caller = sessionCaller(t.deps, u);
    const signed = await signAtRevision(caller, analysisId);
    assert.equal(signed.status, 'final', 'signing does not wait for the RIS');
    const refused = await until('a refused attempt', async () => {
      const [d] = await deliveriesOf(analysisId);
      return d && d.attempts >= 1 && d.lastError ? d : null;
    });
    assert.equal(refused.status, 'pending');
    assert.equal(refused.lastError, 'ECONNREFUSED');
    const ris = await listen(port, []);
    try {
      const done = await until('the delivery', async () => {
        const [d] = await deliveriesOf(analysisId);
        return d?.status === 'delivered' ? d : null;
      });
      assert.ok(done.attempts >= 2, 'delivered on a later attempt');
      assert.equal(done.lastError, null);
      assert.equal(ris.received.length, 1);
      assert.match(ris.received[0]!, /^MSH\|.*ORU\^R01/);
      const [shown] = (await caller.report.get({ analysisId })).deliveries;
      assert.deepEqual(shown, {
        destination: 'hl7',
        carries: 'signature',
        status: 'delivered',
        attempts: done.attempts,
        lastError: null,
      });
    } finally {
      await ris.close();
    }
  });

  test('a RIS that refuses every attempt: failed after the last one, the code kept, not its text', async () => {
    const ris = await listen(port, ['AR', 'AE', 'AR', 'AR']);
    try {
      const analysisId = await study();
      await signAtRevision(sessionCaller(t.deps, u), analysisId);
      const failed = await until('the last attempt', async () => {
        const [d] = await deliveriesOf(analysisId);
        return d?.status === 'failed' ? d : null;
      });
      assert.equal(failed.attempts, 4);
      assert.equal(failed.lastError, 'ACK AR');
      assert.equal(ris.received.length, 4);
      const [shown] = (await sessionCaller(t.deps, u).report.get({ analysisId })).deliveries;
      assert.equal(shown?.status, 'failed');
    } finally {
      await ris.close();
    }
  });

  test('a delivery whose job never reached the queue (Redis away at signing) is queued by the sweep', async () => {
    const ris = await listen(port, []);
    try {
      const analysisId = await study();
      await signAtRevision(sessionCaller(t.deps, u), analysisId);
      await until('the signature delivered', async () => (await deliveriesOf(analysisId))[0]?.status === 'delivered');
      // A row as the signature's transaction writes it, with no job behind it.
      const [lost] = await t.deps.db
        .insert(reportDeliveries)
        .values({ analysisId, addendumId: null, destination: 'hl7' })
        .returning();
      const delivery = startReportDelivery(t.deps);
      try {
        assert.ok((await delivery.sweep()) >= 1);
        await until('the swept delivery', async () => {
          const [d] = await t.deps.db.select().from(reportDeliveries).where(eq(reportDeliveries.id, lost!.id));
          return d?.status === 'delivered';
        });
        assert.equal(ris.received.length, 2);
      } finally {
        await delivery.close();
      }
    } finally {
      await ris.close();
    }
  });

  test('jobs carry the delivery id only; no patient data in the queue or the log', async () => {
    const queue = new Queue(QueueName.ReportDelivery, { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX });
    try {
      const jobs = await queue.getJobs(['completed', 'failed', 'delayed', 'waiting', 'active']);
      assert.ok(jobs.length >= 2);
      for (const job of jobs) {
        assert.deepEqual(Object.keys(job.data as object), ['deliveryId']);
        assert.equal(job.id, (job.data as { deliveryId: string }).deliveryId);
        assert.doesNotMatch(JSON.stringify({ data: job.data, reason: job.failedReason }), /Zqxpatient|ACC-D41/i);
      }
    } finally {
      await queue.close();
    }
    const log = logLines.join('');
    assert.match(log, /report delivery failed/, 'the failed attempts were logged');
    assert.match(log, /ECONNREFUSED/);
    assert.doesNotMatch(log, /Zqxpatient|ACC-D41|Mass/i);
  });
});

/**
 * Issue 46 H2: after two restarts mid-attempt BullMQ fails the job as stalled, and its row said
 * `pending` forever (the sweep's add was a no-op for the failed job's id). Here no consumer runs
 * while a throwaway worker fails the job as BullMQ's stall check does; the consumer's sweep then
 * marks the row failed with a code, and still queues a row that has no job at all.
 */
describe('the sweep settles rows whose job failed or stalled', () => {
  let t: TestApp;
  let u: TTestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { REPORT_HL7_DESTINATION: '127.0.0.1:9', REPORT_HL7_ATTEMPTS: '1' } });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
  });

  test('a stalled-out job: failed with its code, never pending; a lost job: queued again', async () => {
    const [instance] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [film] = await t.deps.db
      .select({ analysisId: dicomInstances.analysisId })
      .from(dicomInstances)
      .where(eq(dicomInstances.id, instance!));
    const analysisId = film!.analysisId!;
    await signAtRevision(sessionCaller(t.deps, u), analysisId);
    const [stalled] = await t.deps.db
      .select()
      .from(reportDeliveries)
      .where(eq(reportDeliveries.analysisId, analysisId));
    assert.equal(stalled?.status, 'pending');
    const prefix = t.deps.config.QUEUE_PREFIX;
    const dying = new Worker(
      QueueName.ReportDelivery,
      () => Promise.reject(new Error('job stalled more than allowable limit')),
      { connection: t.deps.redis, prefix },
    );
    const queue = new Queue(QueueName.ReportDelivery, { connection: t.deps.redis, prefix });
    try {
      await until('the job failed', async () => (await (await queue.getJob(stalled!.id))?.getState()) === 'failed');
    } finally {
      await dying.close();
    }
    const [lost] = await t.deps.db
      .insert(reportDeliveries)
      .values({ analysisId, addendumId: null, destination: 'hl7' })
      .returning();
    const delivery = startReportDelivery(t.deps);
    try {
      // The consumer sweeps at start too: either sweep may be the one that queues the lost row.
      await delivery.sweep();
      const [after] = await t.deps.db.select().from(reportDeliveries).where(eq(reportDeliveries.id, stalled!.id));
      assert.equal(after?.status, 'failed');
      assert.equal(after?.lastError, LOST_JOB_CODE);
      assert.ok(await queue.getJob(lost!.id), 'queued');
    } finally {
      await delivery.close();
      await queue.close();
    }
  });
});
