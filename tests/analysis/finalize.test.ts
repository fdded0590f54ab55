import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { UnrecoverableError, Worker } from 'bullmq';
import { eq } from 'drizzle-orm';
import { analyses, chats, messages } from '../../server/src/db/schema.js';
import { QueueName } from '@contracts/queues.js';
import { ANALYSIS_MESSAGES, type TWorkerResult } from '@contracts/schemas/analysis.js';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { failAnalysis, finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { startAnalysisConsumers } from '../../server/src/services/analysis/start-analysis-consumers.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { queuedAnalysis, refusedResult, sampleResult, sampleResultV2, workerResultOf } from './support/fixtures.js';

for (const backend of testBackends()) {
  describe(`analysis finalizer and reconciler on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;
    const caller = (user: TTestUser) => sessionCaller(t.deps, user);
    const upload = (user = u) => queuedAnalysis(t.deps, user.user.id);
    /** Last touched an hour ago: old enough for the reconciler to treat it as stuck. */
    const makeStale = (analysisId: string) =>
      t.deps.db
        .update(analyses)
        .set({ updatedAt: new Date(Date.now() - 3600_000) })
        .where(eq(analyses.id, analysisId));
    const reportsOf = (analysisId: string) =>
      t.deps.db.select().from(messages).where(eq(messages.analysisId, analysisId));

    beforeAll(async () => {
      t = await createTestApp({ backend });
      u = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('the finalizer writes one report with findings, impression, remarks, model version and disclaimer; a second run adds nothing', async () => {
      const a = await upload();
      const job = { analysisId: a.analysisId, result: workerResultOf(sampleResult()), heatmap: null };
      assert.equal(await finalizeAnalysis({ ...t.deps, job: job }), 'completed');
      assert.equal(await finalizeAnalysis({ ...t.deps, job: job }), 'skipped');
      const reports = await reportsOf(a.analysisId);
      assert.equal(reports.length, 1);
      const report = reports[0]!;
      assert.equal(report.role, 'assistant');
      assert.equal(report.disease, 'Pneumonia');
      for (const f of sampleResult().findings)
        assert.ok(report.content.includes(`| ${f.display} | ${pct(f.probability)} |`), f.label);
      assert.match(report.content, /### Impression/);
      assert.match(report.content, /### Suggested next steps/);
      assert.match(report.content, /Patient age 34: adult/);
      assert.match(report.content, /pneumonia only from pediatric films/);
      assert.match(report.content, /Smoker: 10 pack-years/);
      assert.match(report.content, /low contrast/);
      assert.match(report.content, /version test-1\.0\.0/);
      assert.ok(report.content.includes(DISCLAIMER));
      const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, a.analysisId));
      assert.equal(row?.status, 'completed');
      assert.equal(row?.modelVersion, 'test-1.0.0');
      // Even a direct second insert is refused by the unique index.
      await assert.rejects(
        t.deps.db
          .insert(messages)
          .values({ chatId: a.chatId, role: 'assistant', content: 'dup', analysisId: a.analysisId }),
      );
    });

    test("a model-2 result keeps anatomy and notAssessed from the worker's job to the stored row and the tRPC view", async () => {
      const a = await upload();
      const sent = sampleResultV2();
      // Exactly what the worker sends (JSON over the queue), with a field the server does not know.
      const job = {
        analysisId: a.analysisId,
        result: { ...JSON.parse(JSON.stringify(workerResultOf(sent))), unknownField: 1 } as TWorkerResult,
        heatmap: null,
      };
      assert.equal(await finalizeAnalysis({ ...t.deps, job: job }), 'completed');
      const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, a.analysisId));
      const stored = row!.result as Record<string, unknown>;
      assert.deepEqual(stored.anatomy, sent.anatomy);
      assert.deepEqual(stored.notAssessed, sent.notAssessed);
      for (const view of [
        await caller(u).analysis.get({ analysisId: a.analysisId }),
        await caller(u).analysis.forChat({ chatId: a.chatId }),
      ]) {
        assert.deepEqual(view.result?.anatomy, sent.anatomy);
        assert.deepEqual(view.result?.notAssessed, sent.notAssessed);
      }
      const [report] = await reportsOf(a.analysisId);
      assert.match(report!.content, /Cardiothoracic ratio 0\.56 \(usual upper reference 0\.50 on an adult PA film\)/);
      assert.match(report!.content, /Not assessed: Hernia, Fibrosis, Atelectasis/);
    });

    test('a refused image ends as a clear assistant message, status refused, no disease', async () => {
      const a = await upload();
      assert.equal(
        await finalizeAnalysis({
          ...t.deps,
          job: { analysisId: a.analysisId, result: workerResultOf(refusedResult()), heatmap: null },
        }),
        'refused',
      );
      const [report] = await reportsOf(a.analysisId);
      assert.match(report!.content, /Image not analysed/);
      assert.match(report!.content, /colour photograph/);
      assert.equal(report!.disease, null);
      const view = await caller(u).analysis.forChat({ chatId: a.chatId });
      assert.equal(view.status, 'refused');
      assert.match(view.error ?? '', /colour photograph/, 'the refusal reason reaches the client');
    });

    test('failAnalysis marks failed once with the spec message', async () => {
      const a = await upload();
      assert.equal(await failAnalysis({ ...t.deps, analysisId: a.analysisId, reason: 'boom' }), true);
      assert.equal(await failAnalysis({ ...t.deps, analysisId: a.analysisId, reason: 'boom' }), false);
      const [report] = await reportsOf(a.analysisId);
      assert.match(report!.content, /^Failed to analyze image\. Please try again\./);
      const view = await caller(u).analysis.get({ analysisId: a.analysisId });
      assert.equal(view.error, ANALYSIS_MESSAGES.failed);
    });

    test('a finished analysis whose chat was deleted is skipped', async () => {
      const a = await upload();
      await t.deps.db.delete(chats).where(eq(chats.id, a.chatId));
      assert.equal(
        await finalizeAnalysis({
          ...t.deps,
          job: { analysisId: a.analysisId, result: workerResultOf(sampleResult()), heatmap: null },
        }),
        'skipped',
      );
    });

    test('the reconciler re-enqueues an analysis stuck in queued whose job is gone, under the same job id', async () => {
      const a = await upload();
      await t.deps.analysisQueue.remove(a.analysisId);
      assert.equal(await t.deps.analysisQueue.getJobState(a.analysisId), 'unknown');
      await makeStale(a.analysisId);
      const consumers = startAnalysisConsumers(t.deps);
      try {
        const report = await consumers.reconcile();
        assert.ok(report.requeued >= 1);
        const job = await t.deps.analysisQueue.getJob(a.analysisId);
        assert.equal(job?.data.analysisId, a.analysisId);
        // A fresh analysis (not stuck long enough) and one whose job still waits are left alone.
        const again = await consumers.reconcile();
        assert.equal(again.requeued, 0);
      } finally {
        await consumers.close();
      }
    });

    test('the reconciler marks failed an analysis whose job failed while no server listened', async () => {
      const a = await upload();
      // A worker fails the job while no failed-job listener runs (the server was down).
      const worker = new Worker(
        QueueName.Analysis,
        async () => {
          throw new UnrecoverableError('image could not be decoded');
        },
        { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX },
      );
      worker.on('error', () => undefined);
      try {
        for (let i = 0; i < 100 && (await t.deps.analysisQueue.getJobState(a.analysisId)) !== 'failed'; i++)
          await new Promise((r) => setTimeout(r, 50));
      } finally {
        await worker.close();
      }
      assert.equal(await t.deps.analysisQueue.getJobState(a.analysisId), 'failed');
      await makeStale(a.analysisId);
      const consumers = startAnalysisConsumers(t.deps);
      try {
        const report = await consumers.reconcile();
        assert.ok(report.failed >= 1);
      } finally {
        await consumers.close();
      }
      const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, a.analysisId));
      assert.equal(row?.status, 'failed');
      assert.equal((await reportsOf(a.analysisId)).length, 1);
    });

    test('onProgress yields the current stage, then each change until done; the result job is finalized by the consumer', async () => {
      const consumers = startAnalysisConsumers(t.deps);
      try {
        const a = await upload();
        const stream = await caller(u).analysis.onProgress({ analysisId: a.analysisId });
        const seen: string[] = [];
        const reading = (async () => {
          for await (const e of stream) seen.push(e.stage);
        })();
        await new Promise((r) => setTimeout(r, 200));
        const prefix = t.deps.config.QUEUE_PREFIX;
        for (const stage of ['checking', 'analysing', 'writing'] as const) {
          await publishAnalysisEvent(t.deps.redis, prefix, { analysisId: a.analysisId, stage });
          await new Promise((r) => setTimeout(r, 50));
        }
        await consumers.resultQueue.add(
          'result',
          { analysisId: a.analysisId, result: workerResultOf(sampleResult()), heatmap: null },
          { jobId: `result-${a.analysisId}` },
        );
        await reading;
        assert.deepEqual(seen, ['queued', 'checking', 'analysing', 'writing', 'done']);
        assert.equal((await reportsOf(a.analysisId)).length, 1);
      } finally {
        await consumers.close();
      }
    });

    test("another user's analysis answers exactly like a missing one", async () => {
      const a = await upload();
      const other = await createUser(t.deps);
      await assert.rejects(caller(other).analysis.forChat({ chatId: a.chatId }), { code: 'NOT_FOUND' });
      await assert.rejects(caller(other).analysis.get({ analysisId: a.analysisId }), { code: 'NOT_FOUND' });
      const stream = await caller(other).analysis.onProgress({ analysisId: a.analysisId });
      await assert.rejects(
        async () => {
          for await (const _ of stream) break;
        },
        { code: 'NOT_FOUND' },
      );
      await assert.rejects(caller(other).analysis.get({ analysisId: 'not-a-uuid' }), { code: 'NOT_FOUND' });
    });
  });
}
