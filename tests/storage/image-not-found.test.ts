import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { describe, test } from 'vitest';
import { LocalImageStore } from '@common/storage/local-image-store.js';
import { ImageNotFoundError, type ImageStore } from '@contracts/image-store.js';
import { createAnalysisProcessor } from '../../worker/src/jobs/process-analysis.js';
import type { WorkerDeps } from '../../worker/src/worker-deps.js';

// D11: the store says "not found" in one typed way; the worker no longer reads backend error codes.

describe('a missing image', () => {
  test('the local store throws ImageNotFoundError, naming no key', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cxr-store-'));
    try {
      const err = await new LocalImageStore(root).get('img/ab/cd/abcd').catch((e: unknown) => e);
      assert.ok(err instanceof ImageNotFoundError);
      assert.doesNotMatch(err.message, /abcd/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  const run = (get: ImageStore['get']) => {
    const deps = {
      config: { MODEL_DIR: 'models/cxr', QUEUE_PREFIX: 'test', ANALYSIS_TIMEOUT_MS: 60_000, NODE_ENV: 'test' },
      redis: { publish: () => Promise.resolve(0) },
      images: { get },
    } as unknown as WorkerDeps;
    const job = {
      data: { analysisId: randomUUID(), storageKey: 'k', mediaType: 'image/png' },
      updateProgress: () => Promise.resolve(),
    };
    return createAnalysisProcessor(deps)(job as unknown as Job);
  };

  test('ends the job without retries in the worker', async () => {
    await assert.rejects(
      run(() => Promise.reject(new ImageNotFoundError())),
      (err: unknown) => {
        assert.ok(err instanceof UnrecoverableError);
        assert.equal(err.message, 'image missing from storage');
        return true;
      },
    );
  });

  test('any other storage error stays retryable', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await assert.rejects(
      run(() => Promise.reject(outage)),
      (err: unknown) => err === outage,
    );
  });
});
