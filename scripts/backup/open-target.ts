import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { loadConfig, type TConfig } from '@contracts/config/server-config.js';
import { pgliteDirOf } from '../../server/src/open-deps.js';
import { createImageStore } from '@common/storage/create-image-store.js';
import type { ImageStore } from '@contracts/image-store.js';
import { BackupError } from './backup-format.js';

export interface BackupTarget {
  config: TConfig;
  database: Database;
  images: ImageStore;
  where: string;
}

/**
 * Opens the configured database and image store, as the app would. Embedded PGlite allows one
 * process only and takes no lock of its own, so a second opener would corrupt it: while a
 * PGlite process runs (or after one crashed) its directory holds postmaster.pid, and we refuse.
 */
export async function openTarget(opts: { ignoreLock: boolean }): Promise<BackupTarget> {
  const config = loadConfig();
  const pgliteDir = pgliteDirOf(config);
  if (!config.DATABASE_URL && !pgliteDir.startsWith('memory://')) {
    if (existsSync(join(pgliteDir, 'postmaster.pid')) && !opts.ignoreLock) {
      throw new BackupError(
        `The embedded database at ${pgliteDir} is in use. Stop the Chest Doctor AI server and worker first ` +
          '(the embedded database allows one process at a time). If they are certainly stopped and the app ' +
          'last ended in a crash, rerun with --ignore-lock.',
      );
    }
  }
  const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir });
  const where = config.DATABASE_URL
    ? new URL(config.DATABASE_URL).host + new URL(config.DATABASE_URL).pathname
    : pgliteDir;
  return { config, database, images: await createImageStore(config), where };
}

/** A refusal the user can act on (BackupError) exits 2 with its message; anything else 1. */
export function exitCodeOf(err: unknown): number {
  const message =
    err instanceof BackupError ? err.message : `Failed: ${err instanceof Error ? err.message : String(err)}`;
  console.error(message);
  return err instanceof BackupError ? 2 : 1;
}
