import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createImageStore } from '@common/storage/create-image-store.js';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { SHIPPED_MODEL_ID } from '@contracts/model/registry.js';
import { QueueName, ZShadowResultJob, type TShadowResultJob } from '@contracts/queues.js';
import { createShadowProcessor } from '../../worker/src/jobs/process-shadow.js';
import { createModelCache, type ModelCache } from '../../worker/src/models/model-cache.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * Issue 47: a shadow study does not start while live analyses run or wait. It steps back (delayed,
 * no attempt spent) and runs once the live queue is idle. Real Redis and BullMQ, the shipped model
 * standing in for a shadow.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = { url: REDIS_URL };
const prefix = `sy${uniqueSuffix()}`;
let dataDir: string;
let models: ModelCache;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cxr-shadow-yield-'));
  models = createModelCache({ shipped: 'models/cxr', registry: path.join(dataDir, 'models') }, 1);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await models.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a shadow study waits for live work (issue 47)', () => {
  test('while the live queue is busy the shadow job is delayed and the model never asked for; then it runs', async () => {
    const config = loadWorkerConfig({ ...process.env, DATA_DIR: dataDir, QUEUE_PREFIX: prefix, REDIS_URL });
    const images = await createImageStore(config);
    const storageKey = `t/${randomUUID()}.jpg`;
    await images.put(storageKey, await readFile('tests/fixtures/cxr/normal-covid-normal-6288.jpg'), 'image/jpeg');
    const shadowResultQueue = new Queue(QueueName.ShadowResult, { connection, prefix });
    const shadowQueue = new Queue(QueueName.AnalysisShadow, { connection, prefix });
    closers.push(() => shadowResultQueue.close(), () => shadowQueue.close());

    let busy = true;
    let busyChecks = 0;
    let modelAsked = 0;
    const counting: ModelCache = { ...models, get: (id) => (modelAsked++, models.get(id)) };
    const liveBusy = async () => (busyChecks++, busy);
    const worker = new Worker(
      QueueName.AnalysisShadow,
      createShadowProcessor({ config, images, shadowResultQueue, models: counting, liveBusy, yieldMs: 300 }),
      { connection, prefix },
    );
    closers.push(() => worker.close());
    const results: TShadowResultJob[] = [];
    const resultWorker = new Worker(
      QueueName.ShadowResult,
      async (job: Job) => void results.push(ZShadowResultJob.parse(job.data)),
      { connection, prefix },
    );
    closers.push(() => resultWorker.close());

    const analysisId = randomUUID();
    const job = await shadowQueue.add('shadow', { analysisId, modelId: SHIPPED_MODEL_ID, storageKey, mediaType: 'image/jpeg' });
    const end = Date.now() + 30_000;
    while (busyChecks < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    assert.ok(busyChecks >= 3, 'the shadow job was tried again while the live queue stayed busy');
    assert.equal(modelAsked, 0, 'no shadow inference while live work is busy');
    assert.equal(results.length, 0);
    assert.equal((await shadowQueue.getJob(job.id!))?.attemptsMade, 0, 'stepping back spends no attempt');

    busy = false;
    while (results.length === 0 && Date.now() < end + 60_000) await new Promise((r) => setTimeout(r, 100));
    assert.equal(results[0]?.analysisId, analysisId);
    assert.equal(modelAsked, 1);
  }, 120_000);
});
