import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { sweepModelUploads } from '../../server/src/services/models/sweep-model-uploads.js';

/**
 * Issue 47: a server that dies between a model upload and the worker's answer leaves the staging
 * folder (an ONNX file of up to MODEL_IMPORT_MAX_MB) in `<registry>/.uploads/`; the sweep removes
 * such folders once they are older than any request could still be waiting, and nothing else.
 */
let registry: string;
const WAIT_MS = 180_000;
const config = () => ({ MODEL_REGISTRY_DIR: registry, DATA_DIR: '/nonexistent', MODEL_IMPORT_WAIT_MS: WAIT_MS });

async function staged(name: string, ageMs: number): Promise<void> {
  const dir = path.join(registry, '.uploads', name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'model.onnx'), 'x');
  const t = new Date(Date.now() - ageMs);
  await utimes(dir, t, t);
}

beforeAll(async () => {
  registry = await mkdtemp(path.join(tmpdir(), 'cxr-sweep-'));
});
afterAll(() => rm(registry, { recursive: true, force: true }));

describe('model upload sweep (issue 47)', () => {
  test('no uploads folder: nothing to do', async () => {
    assert.equal(await sweepModelUploads({ config: config() }), 0);
  });

  test('removes folders older than the longest import wait plus its grace; keeps a request still in flight and the models', async () => {
    await mkdir(path.join(registry, 'xrv-all'));
    await staged('left-behind', WAIT_MS + 11 * 60_000);
    await staged('in-flight', 5_000);
    await staged('at-the-wait', WAIT_MS);
    assert.equal(await sweepModelUploads({ config: config() }), 1);
    assert.deepEqual((await readdir(path.join(registry, '.uploads'))).sort(), ['at-the-wait', 'in-flight']);
    assert.deepEqual((await readdir(registry)).sort(), ['.uploads', 'xrv-all']);
  });
});
