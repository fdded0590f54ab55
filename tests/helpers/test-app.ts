import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../server/src/app.js';
import type { AppDeps } from '../../server/src/deps.js';
import { openDeps } from '../../server/src/open-deps.js';
import { startBackgroundServices } from '../../server/src/background.js';
import { createPostgresDatabase, pgliteSnapshot, testConfig, type TBackend } from './test-config.js';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  backend: TBackend;
  close(): Promise<void>;
}

export interface TestAppOptions {
  backend?: TBackend;
  env?: Record<string, string>;
  /** Start the server-side consumers (analysis finalizer, reconciler). */
  background?: boolean;
  /** The app's logger (default: the config's, silent in tests); a test that reads the log passes its own. */
  log?: Logger;
}

/**
 * The real app on a throwaway database (PGlite in memory, or a fresh PostgreSQL database), each a
 * copy of the run's migrated template (tests/setup/database-templates.ts).
 */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const backend = opts.backend ?? 'pglite';
  const pgdb = backend === 'postgres' ? await createPostgresDatabase() : null;
  const config = testConfig({ ...(pgdb ? { DATABASE_URL: pgdb.url } : { PGLITE_DIR: 'memory://' }), ...opts.env });
  const opened = await openDeps(config, opts.log, { pgliteSnapshot: pgliteSnapshot() });
  const app = await buildApp({ deps: opened.deps, pingDb: opened.pingDb, logger: false });
  const background = opts.background ? startBackgroundServices(opened.deps) : null;
  await app.ready();
  return {
    app,
    deps: opened.deps,
    backend,
    close: async () => {
      await app.close();
      await background?.close();
      await opened.close();
      await pgdb?.drop();
      await rm(config.DATA_DIR, { recursive: true, force: true });
    },
  };
}
