import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, test } from 'vitest';

/** The command-line tools share one flag parser (common/cli-args.ts) and its conventions. */
const run = promisify(execFile);
const CLIS = {
  batch: 'scripts/batch/batch.ts',
  classify: 'worker/src/cli/classify.ts',
  backup: 'scripts/backup/backup.ts',
  restore: 'scripts/backup/restore.ts',
} as const;

const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
delete baseEnv.PGLITE_DIR;
delete baseEnv.DATABASE_URL;

function cli(entry: string, args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['--import', 'tsx', entry, ...args], { env: { ...baseEnv, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('command-line flags', () => {
  const work = mkdtempSync(join(tmpdir(), 'cxr-cli-'));
  afterAll(() => rm(work, { recursive: true, force: true }));

  for (const [name, entry] of Object.entries(CLIS)) {
    test(`${name} --help prints the usage on stdout and exits 0`, { timeout: 60_000 }, async () => {
      const r = await cli(entry, ['--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^Usage: npm run ${name}`));
    });

    test(`${name} refuses a misspelt flag with exit 2 and names it`, { timeout: 60_000 }, async () => {
      const r = await cli(entry, ['--ouput=x', 'something']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /Unknown option '--ouput'/);
      assert.match(r.stderr, /Usage:/);
    });
  }

  test(
    'backup --out=PATH writes the backup where it says (it used to ignore the = form)',
    { timeout: 120_000 },
    async () => {
      const archive = join(work, 'nested', 'db.tar.gz');
      const r = await cli(CLIS.backup, [`--out=${archive}`], { DATA_DIR: join(work, 'data') });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Backup complete: \d+ tables/);
      assert.ok(existsSync(archive), 'the archive is at --out');
    },
  );
});
