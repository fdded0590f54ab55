import { openDatabase } from '../server/src/db/client.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { pgliteDirOf } from '../server/src/open-deps.js';
import { verifyAuditChain } from '../server/src/services/audit/verify-audit-chain.js';

/**
 * `npm run audit:verify`: recomputes the audit log's hash chain from the first entry to the last,
 * against the configured database (DATABASE_URL, or the embedded one under DATA_DIR). Exit code
 * 0 when intact, 1 when an entry was altered, removed or inserted out of chain, 2 on error.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: pgliteDirOf(config) });
  try {
    const report = await verifyAuditChain({ db: database.db });
    if (report.ok) {
      console.log(`audit log intact: ${report.entries} entries verified`);
      return 0;
    }
    console.error(`audit log BROKEN at entry id ${report.brokenAt} (${report.entries} entries verified before it)`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`audit verification failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
