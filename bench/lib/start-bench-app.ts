import { startE2eApp, type E2eApp } from '../../tests/helpers/e2e-app.js';
import { createPostgresDatabase } from '../../tests/helpers/test-config.js';

/**
 * The real app as processes (startE2eApp) on a throwaway PostgreSQL database, as deployed: made
 * from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) and dropped when
 * the app closes or fails to start. In-process PGlite alone takes ~900 MB of RSS, which would
 * swamp the server's own memory figures.
 */
export async function startPostgresBenchApp(
  env: Record<string, string>,
  opts: { worker?: boolean } = {},
): Promise<E2eApp> {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const pgdb = await createPostgresDatabase();
  const app = await startE2eApp({ DATABASE_URL: pgdb.url, ...env }, opts).catch(async (err: unknown) => {
    await pgdb.drop();
    throw err;
  });
  return {
    ...app,
    close: async () => {
      await app.close();
      await pgdb.drop();
    },
  };
}

/** Signs a new account up through the spec's REST call and returns its session token. */
export async function signUpBenchUser(app: E2eApp, tag = 'bench'): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Clinician',
      email: `${tag}-${Date.now()}@example.org`,
      password: 'bench password 123',
    }),
  });
  const json = (await res.json()) as { token?: string; message?: string };
  if (!json.token) throw new Error(`signup failed: ${json.message ?? res.status}`);
  return json.token;
}
