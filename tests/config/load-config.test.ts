import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';

// D6/D7: every setting comes through a zod-checked config, so a typo stops the process at boot
// instead of reaching BullMQ or onnxruntime as NaN.

describe('the config split', () => {
  test('the worker part has defaults and refuses a typo', () => {
    const c = loadWorkerConfig({});
    assert.equal(c.WORKER_CONCURRENCY, 1);
    assert.equal(c.WORKER_STALLED_MS, 30_000);
    assert.equal(c.ORT_INTRA_OP_THREADS, 1);
    assert.equal(c.REDIS_URL, 'redis://127.0.0.1:6379');
    for (const bad of [
      { WORKER_CONCURRENCY: '2x' },
      { WORKER_LOCK_MS: 'abc' },
      { ORT_INTRA_OP_THREADS: '0' },
      { CXR_TEST_INFERENCE_DELAY_MS: 'slow' },
    ]) {
      assert.throws(() => loadWorkerConfig(bad), new RegExp(`Invalid configuration:\\n  ${Object.keys(bad)[0]}`));
    }
  });

  test('the inference delay seam is a number or "hang"', () => {
    assert.equal(loadWorkerConfig({ CXR_TEST_INFERENCE_DELAY_MS: '250' }).CXR_TEST_INFERENCE_DELAY_MS, 250);
    assert.equal(loadWorkerConfig({ CXR_TEST_INFERENCE_DELAY_MS: 'hang' }).CXR_TEST_INFERENCE_DELAY_MS, 'hang');
    assert.equal(loadWorkerConfig({}).CXR_TEST_INFERENCE_DELAY_MS, undefined);
  });

  test('base settings mean the same in every process; each part ignores the others', () => {
    const env = { MODEL_DIR: '/m', QUEUE_PREFIX: 'q', PORT: '8080', WORKER_CONCURRENCY: '3', PGLITE_DIR: 'memory://' };
    const server = loadConfig(env);
    const worker = loadWorkerConfig(env);
    assert.equal(server.MODEL_DIR, worker.MODEL_DIR);
    assert.equal(server.QUEUE_PREFIX, loadBaseConfig(env).QUEUE_PREFIX);
    assert.equal(server.PGLITE_DIR, 'memory://');
    assert.equal(worker.WORKER_CONCURRENCY, 3);
    assert.ok(!('PORT' in worker) && !('WORKER_CONCURRENCY' in server));
  });

  test('an empty value counts as unset', () => {
    assert.equal(loadConfig({ PGLITE_DIR: '', MODEL_DIR: '' }).PGLITE_DIR, undefined);
    assert.equal(loadConfig({ MODEL_DIR: '' }).MODEL_DIR, './models/cxr');
  });
});
