import { createBackup } from './create-backup.js';
import { exitWith, openTarget, parseArgs } from './open-target.js';

const HELP = `Usage: npm run backup -- [--out PATH] [--ignore-lock]

Writes a logical backup of the database (every table, in foreign-key order) and of every stored
image, with a manifest of row counts and sha256 hashes. PATH ending in .tar.gz or .tgz gives one
archive, anything else a directory (default: backups/cxr-<timestamp>.tar.gz).

Uses the same configuration as the app (DATABASE_URL, DATA_DIR, UPLOAD_DIR, S3_*).
With the embedded database (no DATABASE_URL) stop the server and worker first.
With a PostgreSQL server the app can keep running: the dump is one consistent snapshot.
The backup contains patient data: keep it encrypted and access-controlled.`;

async function main(): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2));
  if (flags.has('--help')) return void console.log(HELP);
  const out = typeof flags.get('--out') === 'string'
    ? String(flags.get('--out'))
    : `backups/cxr-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  const target = await openTarget({ ignoreLock: flags.has('--ignore-lock') });
  try {
    if (out.startsWith('backups/')) await import('node:fs/promises').then((fs) => fs.mkdir('backups', { recursive: true, mode: 0o700 }));
    console.log(`Backing up ${target.where} to ${out}`);
    const m = await createBackup({ db: target.database.db, dbKind: target.database.kind, images: target.images, out, log: console.log });
    const rows = m.tables.reduce((n, t) => n + t.rows, 0);
    console.log(`Backup complete: ${m.tables.length} tables, ${rows} rows, ${m.files.length} images -> ${out}`);
  } finally {
    await target.database.close();
  }
}

main().catch(exitWith);
