import { restoreBackup } from './restore-backup.js';
import { exitWith, openTarget, parseArgs } from './open-target.js';

const HELP = `Usage: npm run restore -- BACKUP [--force] [--ignore-lock]

Restores a backup made by npm run backup (a directory or a .tar.gz) into the configured database
and image storage. Every hash is verified before anything is written; a damaged backup fails
with a message naming the damaged part and restores nothing. The target database must be empty
(a fresh install) unless --force is given, which replaces its contents.

Stop the server and worker first.`;

async function main(): Promise<void> {
  const { flags, positional } = parseArgs(process.argv.slice(2));
  const from = positional[0];
  if (flags.has('--help') || !from) {
    console.log(HELP);
    if (!from) process.exit(flags.has('--help') ? 0 : 2);
    return;
  }
  const target = await openTarget({ ignoreLock: flags.has('--ignore-lock') });
  try {
    console.log(`Restoring ${from} into ${target.where}`);
    const r = await restoreBackup({ db: target.database.db, images: target.images, from, force: flags.has('--force'), log: console.log });
    const rows = Object.values(r.rows).reduce((n, c) => n + c, 0);
    console.log(`Restore complete: ${rows} rows, ${r.files} images, audit chain intact (${r.auditEntries} entries)`);
  } finally {
    await target.database.close();
  }
}

main().catch(exitWith);
