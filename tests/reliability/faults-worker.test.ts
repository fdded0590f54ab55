import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analysisState, uploadXray, waitFor } from '../helpers/fault-procs.js';
import { createFaultWorld, type TFaultWorld } from './fault-setup.js';

const enabled = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!enabled && 'needs TEST_DATABASE_URL (PostgreSQL)')(
  'fault injection: worker processes killed, stopped and hung',
  () => {
    let w: TFaultWorld;
    beforeAll(async () => {
      w = await createFaultWorld();
    });
    afterAll(() => w?.close());

    const submit = async () => {
      const r = await uploadXray(w.stack, w.token);
      assert.equal(r.status, 202, JSON.stringify(r.body));
      return r.body.data!.analysis_id;
    };
    const reached = (id: string, stage: string) =>
      waitFor(`analysis ${stage}`, async () => (await analysisState(w.sql, id)).stage === stage, 60_000);
    const finished = (id: string) =>
      waitFor(
        'analysis to finish',
        async () => {
          const s = await analysisState(w.sql, id);
          return ['completed', 'refused', 'failed'].includes(s.status) ? s : null;
        },
        90_000,
      );

    test('(1) a worker SIGKILLed mid-analysis: the job is picked up after the stall interval and the chat gets exactly one report', async () => {
      const first = w.stack.startWorker({ CXR_TEST_INFERENCE_DELAY_MS: '4000' });
      const id = await submit();
      await reached(id, 'analysing');
      await first.stop('SIGKILL');
      assert.notEqual((await analysisState(w.sql, id)).status, 'completed', 'killed before it finished');
      const second = w.stack.startWorker({ CXR_TEST_INFERENCE_DELAY_MS: '200' });
      const end = await finished(id);
      assert.ok(end.status === 'completed' || end.status === 'refused', `ended ${end.status}`);
      await new Promise((r) => setTimeout(r, 1500)); // a late duplicate would show up here
      assert.equal((await analysisState(w.sql, id)).reports, 1, 'exactly one report message');
      const job = await w.queue.getJob(id);
      assert.ok((job?.stalledCounter ?? 0) >= 1 || (job?.attemptsStarted ?? 0) >= 2, 'it really ran a second time');
      await second.stop('SIGTERM');
    });

    test('(2) SIGTERM lets the current analysis finish before the worker exits', async () => {
      const worker = w.stack.startWorker({ CXR_TEST_INFERENCE_DELAY_MS: '3000' });
      const id = await submit();
      await reached(id, 'analysing');
      const exit = await worker.stop('SIGTERM');
      assert.equal(exit.code, 0, 'clean exit');
      assert.equal(await w.queue.getJobState(id), 'completed', 'the job completed before the process exited');
      const end = await finished(id); // the server finalises it: no worker is running any more
      assert.ok(end.status === 'completed' || end.status === 'refused');
      assert.equal(end.reports, 1);
    });

    test('(7) a hung inference is failed by the job timeout and the worker is free for the next job', async () => {
      const worker = w.stack.startWorker({ CXR_TEST_INFERENCE_DELAY_MS: 'hang', ANALYSIS_TIMEOUT_MS: '1000' });
      const a = await submit();
      const b = await submit();
      const endA = await finished(a);
      assert.equal(endA.status, 'failed', 'every attempt timed out, so the analysis failed');
      // B queued behind A on a single-concurrency worker: it only runs because A's attempts ended.
      const endB = await finished(b);
      assert.equal(endB.status, 'failed');
      const jobA = await w.queue.getJob(a);
      assert.match(String(jobA?.failedReason), /timed out/);
      assert.equal(jobA?.attemptsMade, 3);
      const [failure] = (
        await w.sql.query<{ n: number }>('select count(*)::int as n from messages where analysis_id = $1', [a])
      ).rows;
      assert.ok((failure?.n ?? 0) <= 1, 'at most one failure report');
      const exit = await worker.stop('SIGTERM');
      assert.equal(exit.code, 0, 'the worker was not stuck: it exits on SIGTERM');
    });
  },
);
