/**
 * `npm run site-admin -- add|remove|list`: the operator's way to make the first site
 * administrator (issue 23 N3), against the configured database (DATABASE_URL, or the embedded
 * one under DATA_DIR). A running server sees the change within its 5 s session cache.
 */
import { runCli } from '@common/cli-args.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { createRedis } from '@common/redis.js';
import { announceSessionsEnded } from '../../server/src/services/auth/session-cache.js';
import { openDatabase } from '../../server/src/db/client.js';
import { pgliteDirOf } from '../../server/src/open-deps.js';
import { parseSiteAdminArgs, runSiteAdminCommand, USAGE } from './site-admin-command.js';

runCli(USAGE, async () => {
  const command = parseSiteAdminArgs(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: pgliteDirOf(config) });
  try {
    const announce = async (userId: string) => {
      // Best effort: without Redis the servers' 5 s session cache catches up on its own.
      const redis = createRedis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      try {
        await announceSessionsEnded({ redis, config, userId });
      } finally {
        redis.disconnect();
      }
    };
    return await runSiteAdminCommand({
      announce,
      db: database.db,
      command,
      print: (line) => process.stdout.write(`${line}\n`),
    });
  } finally {
    await database.close();
  }
});
