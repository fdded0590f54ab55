import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses } from '../../server/src/db/schema.js';
import { createAnalysis } from '../../server/src/services/analysis/create-analysis.js';
import { waitForAnalysis } from '../../server/src/services/analysis/follow-analysis.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { META, radiograph } from './support/fixtures.js';
import { startAnalysisWorker, testModelDir, type TestAnalysisWorker } from './support/start-analysis-worker.js';

const modelDir = testModelDir();

/**
 * A hung inference must not hold the worker: with ANALYSIS_TIMEOUT_MS (5 ms) far below what a 17 MP
 * film takes to decode and analyse, each attempt times out, BullMQ retries with backoff, and
 * after the last attempt the analysis ends failed (the worker is free for the next job).
 */
describe('analysis timeout', () => {
  let t: TestApp;
  let w: TestAnalysisWorker;

  beforeAll(async () => {
    t = await createTestApp({ background: true, env: { MODEL_DIR: modelDir, ANALYSIS_TIMEOUT_MS: '5' } });
    w = startAnalysisWorker(t.deps);
  });
  afterAll(async () => {
    await w.close();
    await t.close();
  });

  test('each attempt times out, the job is retried, then the analysis is failed', async () => {
    const u = await createUser(t.deps);
    const a = await createAnalysis({
      ...t.deps,
      meta: META,
      userId: u.user.id,
      raw: { image: await radiograph({ side: 4000 }), profileJson: '{}', profileId: null },
    });
    assert.equal(
      await waitForAnalysis({ ...t.deps, userId: u.user.id, analysisId: a.analysisId, timeoutMs: 30_000 }),
      'failed',
    );
    const job = await t.deps.analysisQueue.getJob(a.analysisId);
    assert.equal(job?.attemptsMade, 3);
    assert.match(job?.failedReason ?? '', /timed out/);
    const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, a.analysisId));
    assert.match(row?.error ?? '', /timed out/);
  });
});
