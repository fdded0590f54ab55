import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { restoreBackup } from './restore-backup.js';
import { exitCodeOf, openTarget } from './open-target.js';

const HELP = `Usage: npm run restore -- BACKUP [--force] [--ignore-lock]

Restores a backup made by npm run backup (a directory or a .tar.gz) into the configured database
and image storage. Every hash is verified before anything is written; a damaged backup fails
with a message naming the damaged part and restores nothing. The target database must be empty
(a fresh install) unless --force is given, which replaces its contents.

Stop the server and worker first.
Exit codes: 0 done, 1 failed, 2 refused (usage, damaged backup, target not empty).`;

runCli(
  HELP,
  async () => {
    const { values, positionals } = parseCliArgs(process.argv.slice(2), {
      force: { type: 'boolean' },
      'ignore-lock': { type: 'boolean' },
    });
    const from = positionals[0];
    if (!from || positionals.length > 1) throw new CliUsageError('Give exactly one backup (a directory or a .tar.gz).');
    const target = await openTarget({ ignoreLock: values['ignore-lock'] === true });
    try {
      console.log(`Restoring ${from} into ${target.where}`);
      const r = await restoreBackup({
        db: target.database.db,
        images: target.images,
        from,
        force: values.force === true,
        log: console.log,
      });
      const rows = Object.values(r.rows).reduce((n, c) => n + c, 0);
      console.log(`Restore complete: ${rows} rows, ${r.files} images, audit chain intact (${r.auditEntries} entries)`);
    } finally {
      await target.database.close();
    }
  },
  exitCodeOf,
);
