import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analysisState, startTcpProxy, uploadXray, waitFor, type TProc } from '../helpers/fault-procs.js';
import { createFaultWorld, type TFaultWorld } from './fault-setup.js';

const enabled = Boolean(process.env.TEST_DATABASE_URL);
const QUEUE_DOWN = 'The analysis service is temporarily unavailable. Please try again in a minute.';

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

describe.skipIf(!enabled && 'needs TEST_DATABASE_URL (PostgreSQL)')(
  'fault injection: Redis and PostgreSQL go away and come back',
  () => {
    let w: TFaultWorld;
    let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
    let worker: TProc;
    beforeAll(async () => {
      const admin = new URL(process.env.TEST_DATABASE_URL ?? '');
      proxy = await startTcpProxy(Number(admin.port || 5432));
      w = await createFaultWorld({
        proxyDbUrl: (url) =>
          Object.assign(new URL(url), { port: String(proxy.port), hostname: '127.0.0.1' }).toString(),
      });
      worker = w.stack.startWorker({ CXR_TEST_INFERENCE_DELAY_MS: '500' });
    });
    afterAll(async () => {
      await worker?.stop('SIGKILL');
      await w?.close();
      await proxy?.close();
    });

    const submit = async () => {
      const r = await uploadXray(w.stack, w.token);
      assert.equal(r.status, 202, JSON.stringify(r.body));
      return r.body.data!.analysis_id;
    };
    const allDone = (ids: string[], timeoutMs = 120_000) =>
      waitFor(
        `${ids.length} analyses to finish`,
        async () => {
          const states = await Promise.all(ids.map((id) => analysisState(w.sql, id)));
          return states.every((s) => s.status === 'completed' || s.status === 'refused') ? states : null;
        },
        timeoutMs,
        500,
      );
    const ready = async () => (await fetch(`${w.stack.url}/readyz`)).status;
    const counts = async () =>
      (
        await w.sql.query<{ chats: number; images: number; analyses: number }>(
          'select (select count(*)::int from chats) as chats, (select count(*)::int from stored_images) as images, (select count(*)::int from analyses) as analyses',
        )
      ).rows[0];

    test('(3) Redis restarted while analyses are queued: nothing is lost (AOF) and the worker resumes by itself', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(await submit());
      const pending = (await Promise.all(ids.map((id) => analysisState(w.sql, id)))).filter(
        (st) => st.status === 'queued',
      ).length;
      assert.ok(pending >= 2, `${pending} analyses still queued when Redis goes down`);
      await w.restartRedis(1000);
      await waitFor('server ready again', async () => (await ready()) === 200, 30_000);
      const states = await allDone(ids);
      assert.deepEqual(
        states.map((s) => s.reports),
        ids.map(() => 1),
        'every analysis has exactly one report',
      );
    });

    test('(4) Redis unreachable: uploads answer 503 within a second, nothing half-made, /readyz 503, work resumes', async () => {
      const before_ = await counts();
      const filesBefore = await countFiles(join(w.stack.dataDir, 'uploads'));
      await w.redis.stop();
      await waitFor('readyz to notice', async () => (await ready()) === 503, 10_000);
      const body = (await (await fetch(`${w.stack.url}/readyz`)).json()) as {
        checks: { redis: boolean; database: boolean };
      };
      assert.deepEqual(body.checks, { database: true, redis: false });
      for (let i = 0; i < 3; i++) {
        const r = await uploadXray(w.stack, w.token);
        assert.equal(r.status, 503);
        assert.equal(r.body.message, QUEUE_DOWN);
        assert.ok(r.ms < 1000, `answered in ${r.ms.toFixed(0)} ms`);
      }
      assert.deepEqual(await counts(), before_, 'no chat, image or analysis row left behind');
      assert.equal(await countFiles(join(w.stack.dataDir, 'uploads')), filesBefore, 'no image file left behind');
      await w.restartRedis(0);
      await waitFor('server ready again', async () => (await ready()) === 200, 30_000);
      const [state] = await allDone([await submit()]);
      assert.equal(state?.reports, 1);
    });

    test('(5) PostgreSQL unreachable: a generic 503, no partial writes, and recovery when it returns', async () => {
      const before_ = await counts();
      await proxy.cut();
      await waitFor('readyz to notice', async () => (await ready()) === 503, 10_000);
      const up = await uploadXray(w.stack, w.token);
      assert.equal(up.status, 503, JSON.stringify(up.body));
      assert.doesNotMatch(up.body.message, /ECONN|postgres|pg|sql|connect/i, 'generic message, no internals');
      const read = await fetch(`${w.stack.url}/api/history/get-init-info`, {
        headers: { authorization: `Bearer ${w.token}` },
      });
      assert.equal(read.status, 503);
      assert.equal(((await read.json()) as { success: boolean }).success, false);
      const health = await fetch(`${w.stack.url}/healthz`);
      assert.equal(health.status, 200, 'the process stays up');
      await proxy.restore();
      await waitFor('server ready again', async () => (await ready()) === 200, 30_000);
      assert.deepEqual(await counts(), before_, 'the refused upload wrote nothing');
      const [state] = await allDone([await submit()]);
      assert.equal(state?.reports, 1);
    });
  },
);
