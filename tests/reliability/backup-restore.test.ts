import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { BackupError } from '../../scripts/backup/backup-format.js';
import { createBackup } from '../../scripts/backup/create-backup.js';
import { restoreBackup } from '../../scripts/backup/restore-backup.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import { sha256Hex } from '../../server/src/lib/tokens.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rowCounts, seedForBackup } from './backup-seed.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'cxr-backup-test-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** Flips one byte in the middle of a file, the way a bad disk sector would. */
async function flipByte(path: string): Promise<void> {
  const b = await readFile(path);
  const i = Math.floor(b.length / 2);
  b[i] = (b[i] ?? 0) ^ 0x01;
  await writeFile(path, b);
}

for (const backend of testBackends()) {
  describe(`backup and restore on ${backend}`, () => {
    let source: TestApp;
    // One empty target for both restore tests: the corrupted backups run first and must leave it
    // empty (they assert so), which is the fresh database the good restore then needs.
    let target: TestApp;
    let before_: Record<string, number>;
    let imageKeys: string[];
    const dirBackup = join(work, `${backend}-dir`);
    const tarBackup = join(work, `${backend}.tar.gz`);

    beforeAll(async () => {
      source = await createTestApp({ backend });
      target = await createTestApp({ backend });
      ({ imageKeys } = await seedForBackup(source.deps));
      before_ = await rowCounts(source.deps.db);
    });
    afterAll(async () => {
      await target.close();
      await source.close();
    });

    test('a backup records every table with row counts and every image with its hash', async () => {
      const m = await createBackup({ db: source.deps.db, dbKind: backend, images: source.deps.images, out: dirBackup });
      for (const [table, n] of Object.entries(before_))
        assert.equal(m.tables.find((t) => t.name === table)?.rows, n, table);
      assert.ok(
        Object.values(before_).every((n) => n > 0),
        'the seed fills every table',
      );
      assert.equal(m.files.length, imageKeys.length);
      assert.deepEqual(m.missingFiles, []);
      const order = m.tables.map((t) => t.name);
      assert.ok(
        order.indexOf('users') < order.indexOf('chats') && order.indexOf('chats') < order.indexOf('messages'),
        'foreign-key order',
      );
      await createBackup({ db: source.deps.db, dbKind: backend, images: source.deps.images, out: tarBackup });
    });

    test('a corrupted backup fails loudly and restores nothing', async () => {
      const corrupt = join(work, `${backend}-corrupt`);
      await run('cp', ['-r', dirBackup, corrupt]);
      await flipByte(join(corrupt, 'tables', 'messages.ndjson'));
      await assert.rejects(
        restoreBackup({ db: target.deps.db, images: target.deps.images, from: corrupt }),
        (err: unknown) =>
          err instanceof BackupError && /tables\/messages\.ndjson.*sha256.*Nothing was restored/.test(err.message),
      );
      await run('cp', [join(dirBackup, 'tables', 'messages.ndjson'), join(corrupt, 'tables', 'messages.ndjson')]);
      const [firstFile] = imageKeys;
      await flipByte(join(corrupt, 'files', firstFile ?? ''));
      await assert.rejects(
        restoreBackup({ db: target.deps.db, images: target.deps.images, from: corrupt }),
        /image .* does not match its sha256/,
      );
      const tarCopy = join(work, `${backend}-corrupt.tar.gz`);
      await run('cp', [tarBackup, tarCopy]);
      await flipByte(tarCopy);
      await assert.rejects(
        restoreBackup({ db: target.deps.db, images: target.deps.images, from: tarCopy }),
        BackupError,
      );
      assert.ok(
        Object.values(await rowCounts(target.deps.db)).every((n) => n === 0),
        'nothing restored',
      );
      assert.equal(await target.deps.images.exists(imageKeys[1] ?? ''), false, 'no image written');
    });

    test('restoring the tar.gz into a fresh database gives the same rows, files and an intact audit chain; a non-empty target needs --force', async () => {
      const report = await restoreBackup({ db: target.deps.db, images: target.deps.images, from: tarBackup });
      const after_ = await rowCounts(target.deps.db);
      // The restore appends its own audit entry ("system.restore") to the restored chain.
      assert.deepEqual(after_, { ...before_, audit_log: (before_.audit_log ?? 0) + 1 });
      assert.equal(report.auditEntries, before_.audit_log);
      assert.deepEqual(await verifyAuditChain({ db: target.deps.db }), {
        ok: true,
        entries: (before_.audit_log ?? 0) + 1,
        brokenAt: null,
      });
      for (const key of imageKeys) {
        assert.equal(sha256Hex(await target.deps.images.get(key)), sha256Hex(await source.deps.images.get(key)), key);
      }
      // Identical content, not just counts: compare a table with jsonb, unicode and timestamps.
      const dump = async (d: TestApp) =>
        (
          (await d.deps.db.execute(sql`select row_to_json(c)::text as j from chats c order by id`)) as unknown as {
            rows: unknown[];
          }
        ).rows;
      assert.deepEqual(await dump(target), await dump(source));
      await restoreBackup({ db: target.deps.db, images: target.deps.images, from: dirBackup }).then(
        () => assert.fail('a non-empty target must be refused'),
        (err: unknown) => assert.match(String((err as Error).message), /not empty.*--force/),
      );
      // --force replaces the contents (the directory form this time): same rows again.
      await restoreBackup({ db: target.deps.db, images: target.deps.images, from: dirBackup, force: true });
      assert.deepEqual(await rowCounts(target.deps.db), { ...before_, audit_log: (before_.audit_log ?? 0) + 1 });
      assert.equal((await verifyAuditChain({ db: target.deps.db })).ok, true);
    });
  });
}

describe('npm run backup / restore with the embedded database', () => {
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  delete baseEnv.PGLITE_DIR;
  delete baseEnv.DATABASE_URL;
  const cli = (script: string, args: string[], env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', `scripts/backup/${script}.ts`, ...args], {
      env: { ...baseEnv, ...env },
    }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );

  test('refuses a PGlite directory in use, backs up a stopped one, restores into a fresh data dir', async () => {
    const from = join(work, 'cli-src');
    const to = join(work, 'cli-dst');
    const archive = join(work, 'cli.tar.gz');
    await mkdir(join(from, 'pg'), { recursive: true });
    const open = await PGlite.create(join(from, 'pg'));
    await open.query('select 1');
    const refused = await cli('backup', ['--out', archive], { DATA_DIR: from });
    await open.close();
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /is in use\. Stop the Chest Doctor AI server and worker first/);

    const made = await cli('backup', ['--out', archive], { DATA_DIR: from });
    assert.equal(made.code, 0, made.out);
    assert.match(made.out, /Backup complete: \d+ tables/);
    const restored = await cli('restore', [archive], { DATA_DIR: to });
    assert.equal(restored.code, 0, restored.out);
    assert.match(restored.out, /Restore complete: .*audit chain intact/);
    const again = await cli('restore', [archive], { DATA_DIR: to });
    assert.equal(again.code, 2);
    assert.match(again.out, /not empty/);
  });
});
