import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { modelRegistryDir } from '@contracts/config/base-config.js';
import { MODEL_UPLOADS_DIR } from '@contracts/queues.js';
import type { TConfig } from '@contracts/config/server-config.js';
import type { AppDeps } from '../../deps.js';
import { runHourly } from '../../lib/run-hourly.js';

/** The grace beyond the import's own wait before a folder counts as left behind. */
const GRACE_MS = 10 * 60 * 1000;

/**
 * Removes model uploads left in `<registry>/.uploads/` (issue 47): a request removes its staging
 * folder whatever happens, but a server that dies between the upload and the worker's answer
 * leaves one (an ONNX file of up to MODEL_IMPORT_MAX_MB). A folder older than the import's longest
 * wait plus a grace period belongs to no request still running. Returns the folders removed.
 */
export async function sweepModelUploads(opts: {
  config: Pick<TConfig, 'MODEL_REGISTRY_DIR' | 'DATA_DIR' | 'MODEL_IMPORT_WAIT_MS'>;
  now?: number;
}): Promise<number> {
  const root = path.join(modelRegistryDir(opts.config), MODEL_UPLOADS_DIR);
  const before = (opts.now ?? Date.now()) - opts.config.MODEL_IMPORT_WAIT_MS - GRACE_MS;
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0; // no upload ever made
  }
  let removed = 0;
  for (const name of names) {
    const dir = path.join(root, name);
    const info = await stat(dir).catch(() => null);
    if (!info || info.mtimeMs >= before) continue;
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** The sweep at boot (after a few seconds) and hourly, beside the server's other background work. */
export function startModelUploadSweeper(deps: Pick<AppDeps, 'config' | 'log'>): { close(): Promise<void> } {
  return runHourly(() => {
    sweepModelUploads({ config: deps.config })
      .then((n) => {
        if (n) deps.log.info({ removed: n }, 'removed model uploads left behind');
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not sweep model uploads'));
  });
}
