import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { createBackup } from './create-backup.js';
import { exitCodeOf, openTarget } from './open-target.js';

const HELP = `Usage: npm run backup -- [--out PATH | --out=PATH] [--ignore-lock]

Writes a logical backup of the database (every table, in foreign-key order) and of every stored
image, with a manifest of row counts and sha256 hashes. PATH ending in .tar.gz or .tgz gives one
archive, anything else a directory (default: backups/cxr-<timestamp>.tar.gz).

Uses the same configuration as the app (DATABASE_URL, DATA_DIR, UPLOAD_DIR, S3_*).
With the embedded database (no DATABASE_URL) stop the server and worker first.
With a PostgreSQL server the app can keep running: the dump is one consistent snapshot.
The backup contains patient data: keep it encrypted and access-controlled.
Exit codes: 0 done, 1 failed, 2 refused (usage, embedded database in use, bad target).`;

runCli(
  HELP,
  async () => {
    const { values, positionals } = parseCliArgs(process.argv.slice(2), {
      out: { type: 'string' },
      'ignore-lock': { type: 'boolean' },
    });
    if (positionals.length)
      throw new CliUsageError(`Unexpected argument: ${positionals[0]} (did you mean --out ${positionals[0]}?)`);
    const out = values.out ?? `backups/cxr-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const target = await openTarget({ ignoreLock: values['ignore-lock'] === true });
    try {
      // Owner-only: the backup holds patient data.
      await mkdir(dirname(resolve(out)), { recursive: true, mode: 0o700 });
      console.log(`Backing up ${target.where} to ${out}`);
      const m = await createBackup({
        db: target.database.db,
        dbKind: target.database.kind,
        images: target.images,
        out,
        log: console.log,
      });
      const rows = m.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`Backup complete: ${m.tables.length} tables, ${rows} rows, ${m.files.length} images -> ${out}`);
    } finally {
      await target.database.close();
    }
  },
  exitCodeOf,
);
