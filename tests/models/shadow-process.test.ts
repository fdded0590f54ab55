import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createImageStore } from '@common/storage/create-image-store.js';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { QueueName, ZShadowResultJob, type TShadowResultJob } from '@contracts/queues.js';
import { SHIPPED_MODEL_ID } from '@contracts/model/registry.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * Issue 47: "shadow inference never delays the live report". The worker runs shadow models in a
 * child process of its own at the lowest CPU priority (SHADOW_NICE, default 19), so the operating
 * system hands the CPU to a live analysis first; the child never outlives the worker. Real worker
 * process, real Redis, the shipped ONNX model.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let dataDir: string;
let worker: ChildProcess;
const prefix = `sp${uniqueSuffix()}`;

/**
 * The pids and niceness of a process's shadow-process children (procps `ps`; tsx's esbuild
 * service is a child too, at the worker's own priority, and is not counted).
 */
function childrenOf(pid: number): { pid: number; nice: number }[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,ni=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return out
    .trim()
    .split('\n')
    .filter((l) => l.includes('shadow-main'))
    .map((l) => l.trim().split(/\s+/).slice(0, 2).map(Number))
    .map(([p, n]) => ({ pid: p!, nice: n! }));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, fn: () => T | null | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cxr-shadow-proc-'));
  worker = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, QUEUE_PREFIX: prefix, REDIS_URL, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
});
afterAll(async () => {
  if (worker.exitCode === null) worker.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('the shadow process (issue 47)', () => {
  test('runs shadow jobs at niceness 19 beside the worker, and dies with it', async () => {
    // One shadow process, which lowers its own priority as it starts (0 for its first moments).
    const child = await until('a shadow process at niceness 19', () =>
      childrenOf(worker.pid!).find((c) => c.nice === 19),
    );
    assert.equal(childrenOf(worker.pid!).length, 1, JSON.stringify(childrenOf(worker.pid!)));

    // A shadow job on its queue comes back as numbers on the shadow-result queue.
    const config = loadWorkerConfig({ ...process.env, DATA_DIR: dataDir, QUEUE_PREFIX: prefix, REDIS_URL });
    const images = await createImageStore(config);
    const storageKey = `t/${randomUUID()}.jpg`;
    await images.put(storageKey, await readFile('tests/fixtures/cxr/normal-covid-normal-6288.jpg'), 'image/jpeg');
    const connection = { url: REDIS_URL };
    const shadowQueue = new Queue(QueueName.AnalysisShadow, { connection, prefix });
    const analysisId = randomUUID();
    const got = new Promise<TShadowResultJob>((resolve) => {
      const results: Worker = new Worker(
        QueueName.ShadowResult,
        async (job: Job) => {
          resolve(ZShadowResultJob.parse(job.data));
          await results.close(true).catch(() => undefined);
        },
        { connection, prefix },
      );
    });
    await shadowQueue.add('shadow', { analysisId, modelId: SHIPPED_MODEL_ID, storageKey, mediaType: 'image/jpeg' });
    const result = await Promise.race([
      got,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no shadow result in 90 s')), 90_000)),
    ]);
    assert.equal(result.analysisId, analysisId);
    assert.ok(result.probabilities && Object.keys(result.probabilities).length > 0);
    await shadowQueue.close();
    await new QueueEvents(QueueName.ShadowResult, { connection, prefix }).close();

    // The worker killed outright: its shadow process does not stay behind.
    worker.kill('SIGKILL');
    await until('the shadow process to exit', () => !alive(child.pid));
  }, 150_000);
});
