import { buildApp } from './app.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { openDeps } from './open-deps.js';
import { startBackgroundServices } from './background.js';

/** Boots the HTTP server; SIGTERM/SIGINT stop accepting, finish in-flight requests, then close. */
async function main(): Promise<void> {
  const config = loadConfig();
  const opened = await openDeps(config);
  const app = await buildApp({ deps: opened.deps, pingDb: opened.pingDb });
  const background = startBackgroundServices(opened.deps);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close();
    await background.close();
    await opened.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Where the socket is bound (PORT=0 picks a free one); PUBLIC_URL is what browsers are sent to.
  const address = await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info({ publicUrl: config.PUBLIC_URL }, `Chest Doctor AI listening on ${address}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
