import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, messages, storedImages } from '../../server/src/db/schema.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import { createAnalysis } from '../../server/src/services/analysis/create-analysis.js';
import { waitForAnalysis } from '../../server/src/services/analysis/follow-analysis.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { colourPhoto, META, PATIENT, radiograph, uploadBody } from './support/fixtures.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { startAnalysisWorker, testModelDir, type TestAnalysisWorker } from './support/start-analysis-worker.js';

const modelDir = testModelDir();

describe(`upload → queue → worker → report with the real pipeline (${modelDir})`, () => {
  let t: TestApp;
  let u: TTestUser;
  let w: TestAnalysisWorker;
  const caller = () => sessionCaller(t.deps, u);

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR: modelDir, ANALYSIS_WAIT_MS: '20000', ANALYSIS_TIMEOUT_MS: '20000' },
    });
    u = await createUser(t.deps);
    w = startAnalysisWorker(t.deps);
  });
  afterAll(async () => {
    await w.close();
    await t.close();
  });

  test('POST /api/chat/analyzer answers once the report is stored (spec contract), with a heatmap when a finding is called', async () => {
    const body = uploadBody(await radiograph({ label: 'pneumonia', side: 1200 }));
    const res = await postMultipart(t.app, '/api/chat/analyzer', body, u.token);
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json();
    assert.equal(json.success, true);
    assert.equal(json.data.status, 'completed');
    const [report] = await t.deps.db.select().from(messages).where(eq(messages.analysisId, json.data.analysis_id));
    assert.ok(report);
    assert.match(report.content, /### Findings/);
    const [analysis] = await t.deps.db.select().from(analyses).where(eq(analyses.id, json.data.analysis_id));
    assert.equal(analysis?.status, 'completed');
    const result = analysis!.result as { topFinding: string | null; timingsMs: Record<string, number> };
    assert.ok(result.timingsMs.workerTotalMs !== undefined);
    if (result.topFinding) {
      assert.ok(analysis?.heatmapImageId, 'a called finding comes with its heatmap overlay');
      assert.equal(report.imageId, analysis?.heatmapImageId);
      const [img] = await t.deps.db.select().from(storedImages).where(eq(storedImages.id, analysis!.heatmapImageId!));
      assert.equal(img?.kind, 'heatmap');
      assert.equal(await t.deps.images.exists(img!.storageKey), true);
      const served = await t.app.inject({ method: 'GET', url: `/api/images/${img!.id}`, headers: bearer(u.token) });
      assert.equal(served.statusCode, 200);
      // The film went in as a JPEG, so its overlay is one too (draw-overlay.ts: an overlay keeps its film's coding).
      assert.equal(img?.mediaType, 'image/jpeg');
      assert.equal(served.headers['content-type'], 'image/jpeg');
      assert.deepEqual([...served.rawPayload.subarray(0, 3)], [0xff, 0xd8, 0xff]);
      const other = await createUser(t.deps);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: `/api/images/${img!.id}`, headers: bearer(other.token) })).statusCode,
        404,
      );
    }
  });

  test('the tRPC path: upload returns at once, onProgress streams queued → checking → analysing → writing → done', async () => {
    const body = uploadBody(await radiograph({ label: 'normal', side: 1000 }));
    await w.worker.pause();
    const res = await postMultipart(t.app, '/api/chat/upload', body, u.token);
    assert.equal(res.statusCode, 202, res.body);
    const { analysis_id } = res.json().data;
    const stream = await caller().analysis.onProgress({ analysisId: analysis_id });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const e of stream) seen.push(e.stage);
    })();
    await new Promise((r) => setTimeout(r, 200));
    await w.worker.resume();
    await reading;
    assert.deepEqual(seen, ['queued', 'checking', 'analysing', 'writing', 'done']);
    const view = await caller().analysis.get({ analysisId: analysis_id });
    assert.equal(view.status, 'completed');
    assert.ok(view.result?.findings.length);
  });

  test('a colour photograph is refused with its reason, not retried', async () => {
    const body = uploadBody(await colourPhoto());
    const res = await postMultipart(t.app, '/api/chat/analyzer', body, u.token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'refused');
    const [report] = await t.deps.db
      .select()
      .from(messages)
      .where(eq(messages.analysisId, res.json().data.analysis_id));
    assert.match(report!.content, /Image not analysed/);
    const job = await t.deps.analysisQueue.getJob(res.json().data.analysis_id);
    assert.equal(job?.attemptsMade, 1);
  });

  test('an unreadable stored image fails at once (UnrecoverableError) with the spec message', async () => {
    await w.worker.pause();
    const a = await createAnalysis({
      ...t.deps,
      meta: META,
      userId: u.user.id,
      raw: { image: await radiograph({ index: 3, side: 300 }), profileJson: JSON.stringify(PATIENT), profileId: null },
    });
    const [img] = await t.deps.db
      .select()
      .from(storedImages)
      .innerJoin(analyses, eq(analyses.imageId, storedImages.id))
      .where(eq(analyses.id, a.analysisId));
    await t.deps.images.put(img!.stored_images.storageKey, Buffer.from('corrupted on disk'), 'image/jpeg');
    await w.worker.resume();
    assert.equal(
      await waitForAnalysis({ ...t.deps, userId: u.user.id, analysisId: a.analysisId, timeoutMs: 15_000 }),
      'failed',
    );
    const job = await t.deps.analysisQueue.getJob(a.analysisId);
    assert.equal(job?.attemptsMade, 1, 'no retries for an unreadable image');
    const [report] = await t.deps.db.select().from(messages).where(eq(messages.analysisId, a.analysisId));
    assert.ok(report!.content.startsWith(ANALYSIS_MESSAGES.failed));
  });

  test('running a finished job again adds no second report', async () => {
    const a = await createAnalysis({
      ...t.deps,
      meta: META,
      userId: u.user.id,
      raw: { image: await radiograph({ index: 4, side: 400 }), profileJson: '{}', profileId: null },
    });
    assert.equal(
      await waitForAnalysis({ ...t.deps, userId: u.user.id, analysisId: a.analysisId, timeoutMs: 15_000 }),
      'completed',
    );
    const job = await t.deps.analysisQueue.getJob(a.analysisId);
    await w.processor(job!);
    // Even with the first result job gone, the finalizer refuses a second report.
    await w.resultQueue.remove(`result-${a.analysisId}`);
    await w.processor(job!);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await t.deps.db.select().from(messages).where(eq(messages.analysisId, a.analysisId))).length, 1);
  });
});
