import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * Cheap argon2 settings for tests where hashing cost does not matter (the production defaults
 * are asserted in password.test.ts). Rate-limit thresholds stay at their defaults unless a test
 * lowers them.
 */
export const FAST_HASH_ENV = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' } as const;

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${uniqueSuffix()}@example.org`;
}

export interface TCall {
  status: number;
  body: Record<string, unknown>;
  res: LightMyRequestResponse;
}

/** A JSON call to the REST API, optionally with a bearer token or a session cookie. */
export async function rest(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  auth?: { bearer?: string; cookie?: string; cookieName?: string; ip?: string; headers?: Record<string, string> },
): Promise<TCall> {
  const headers: Record<string, string> = { ...auth?.headers };
  if (auth?.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const res = await app.inject({
    method,
    url,
    headers,
    // `__Host-token` on an https app (server/src/lib/request-auth.ts).
    ...(auth?.cookie ? { cookies: { [auth.cookieName ?? 'token']: auth.cookie } } : {}),
    ...(auth?.ip ? { remoteAddress: auth.ip } : {}),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, res };
}

/** A tRPC call over HTTP (mutation as POST, query as GET), as the web client makes it. */
export async function trpc(
  app: FastifyInstance,
  kind: 'query' | 'mutation',
  path: string,
  input?: unknown,
  auth?: { bearer?: string; ip?: string },
): Promise<{
  status: number;
  data?: Record<string, unknown>;
  error?: { message: string; data: Record<string, unknown> };
}> {
  const headers: Record<string, string> = {};
  if (auth?.bearer) headers.authorization = `Bearer ${auth.bearer}`;
  const res = await app.inject({
    method: kind === 'query' ? 'GET' : 'POST',
    url:
      kind === 'query'
        ? `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`
        : `/trpc/${path}`,
    headers: kind === 'mutation' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(auth?.ip ? { remoteAddress: auth.ip } : {}),
    ...(kind === 'mutation' ? { payload: JSON.stringify(input ?? null) } : {}),
  });
  const json = res.json() as {
    result?: { data: Record<string, unknown> };
    error?: { message: string; data: Record<string, unknown> };
  };
  return { status: res.statusCode, data: json.result?.data, error: json.error };
}

/** Signs a new user up over REST and returns its token and id. */
export async function signUpUser(
  app: FastifyInstance,
  opts: { email?: string; password?: string; name?: string; ip?: string } = {},
): Promise<{ email: string; password: string; token: string; id: string }> {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? PASSWORD;
  const r = await rest(
    app,
    'POST',
    '/api/auth/signup',
    { name: opts.name ?? 'Dr Test User', email, password },
    { ip: opts.ip ?? randomIp() },
  );
  if (r.status !== 200) throw new Error(`signup failed: ${r.status} ${JSON.stringify(r.body)}`);
  const user = r.body.user as { id: string };
  return { email, password, token: String(r.body.token), id: user.id };
}

/** Logs in over REST from a fresh address (a second session, or a check of which password works). */
export function logIn(app: FastifyInstance, email: string, password: string): Promise<TCall> {
  return rest(app, 'POST', '/api/auth/login', { email, password }, { ip: randomIp() });
}

/** After a password change or reset: the old password is refused and the new one logs in. */
export async function assertPasswordReplaced(
  app: FastifyInstance,
  email: string,
  passwords: { old: string; now: string },
): Promise<void> {
  assert.equal((await logIn(app, email, passwords.old)).status, 401);
  assert.equal((await logIn(app, email, passwords.now)).status, 200);
}

/** A distinct client address, so tests do not share per-IP counters by accident. */
export function randomIp(): string {
  const b = () => Math.floor(Math.random() * 250) + 1;
  return `10.${b()}.${b()}.${b()}`;
}
