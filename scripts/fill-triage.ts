/**
 * `npm run db:fill-triage`: works out the worklist triage of results stored before migration
 * 0011 (or restored from a backup made before it), once, after upgrading, against the configured
 * database (DATABASE_URL, or the embedded one under DATA_DIR). Safe to run again: it touches only
 * rows still without their triage. With the embedded database, stop the server first.
 */
import { parseCliArgs, runCli } from '@common/cli-args.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { openDatabase } from '../server/src/db/client.js';
import { pgliteDirOf } from '../server/src/open-deps.js';
import { fillMissingTriage } from '../server/src/services/dicom-node/fill-missing-triage.js';

const USAGE = `Usage: npm run db:fill-triage

Fills the worklist triage columns of stored results that lack them (results stored before
migration 0011): until then the worklist shows those studies as pending. Run once after
upgrading or restoring an older backup; a second run finds nothing to do.
With the embedded database (no DATABASE_URL), stop the server first: only one process may open it.
Exit codes: 0 done, 1 failed, 2 usage.`;

runCli(USAGE, async () => {
  parseCliArgs(process.argv.slice(2), {});
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: pgliteDirOf(config) });
  try {
    const filled = await fillMissingTriage({ db: database.db });
    process.stdout.write(`worklist triage filled for ${filled} stored result${filled === 1 ? '' : 's'}\n`);
  } finally {
    await database.close();
  }
});
