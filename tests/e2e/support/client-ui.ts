import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '@contracts/config/server-config.js';
import { openDeps, type OpenedDeps } from '../../../server/src/open-deps.js';
import { launchBrowser } from '../../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../../helpers/e2e-app.js';
import { createPostgresDatabase, uniqueSuffix } from '../../helpers/test-config.js';

/**
 * Shared pieces of the web client's e2e files: one real app (server, optionally the worker) and
 * one Chromium per file. With `seed`, the app runs on a fresh PostgreSQL database that the test
 * process opens too, so tests can write chats with the factories and revoke sessions directly.
 */
export interface TClientApp {
  app: E2eApp;
  browser: Browser;
  /** Only with seed: the same database and image store the server uses. */
  opened: OpenedDeps | null;
  close(): Promise<void>;
}

export async function startClientApp(
  opts: { seed?: boolean; worker?: boolean; env?: Record<string, string> } = {},
): Promise<TClientApp> {
  const pg = opts.seed ? await createPostgresDatabase() : null;
  // Cheaper argon2 parameters (NODE_ENV=test allows them): hashing is not what these tests check.
  const env: Record<string, string> = { ARGON2_MEMORY_KIB: '4096', ARGON2_TIME_COST: '1', ...opts.env };
  if (pg) env.DATABASE_URL = pg.url;
  const app = await startE2eApp(env, { worker: opts.worker ?? false });
  const opened = pg ? await openDeps(loadConfig({ ...app.env, LOG_LEVEL: 'silent' })) : null;
  const browser = await launchBrowser();
  return {
    app,
    browser,
    opened,
    close: async () => {
      await browser.close();
      await opened?.close();
      await app.close();
      await pg?.drop();
    },
  };
}

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(): string {
  return `clinician-${uniqueSuffix()}@example.org`;
}

/** Signs up through the API (not the UI) and returns the session cookie's value. */
export async function signUpViaApi(baseUrl: string, opts: { name?: string; email?: string; password?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const name = opts.name ?? 'Dr Test Clinician';
  const password = opts.password ?? PASSWORD;
  const res = await fetch(`${baseUrl}/trpc/auth.signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
  });
  if (!res.ok) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('token='));
  const token = cookie?.slice('token='.length).split(';')[0];
  if (!token) throw new Error('signup set no token cookie');
  const body = (await res.json()) as { result: { data: { user: { id: string; name: string; email: string } } } };
  return { email, name, password, token, user: body.result.data.user };
}

/** A browser context signed in as that session. */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  token: string,
  viewport?: { width: number; height: number },
) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  await context.addCookies([{ name: 'token', value: token, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

/**
 * A new account (signed up through the API), its own signed-in browser context and one page on
 * it, with the page's uncaught errors collected so a test can assert there were none.
 */
export async function openSignedInPage(
  ctx: TClientApp,
  opts: { name?: string; viewport?: { width: number; height: number } } = {},
) {
  const account = await signUpViaApi(ctx.app.url, opts.name ? { name: opts.name } : {});
  const context = await signedInContext(ctx.browser, ctx.app.url, account.token, opts.viewport);
  const page = await context.newPage();
  return { account, context, page, errors: collectPageErrors(page) };
}

/** Calls a tRPC mutation as the given session (to set up data fast). */
export async function trpcMutation<T>(baseUrl: string, token: string, path: string, input: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `token=${token}` },
    body: JSON.stringify(input),
  });
  if (!res.ok) throw new Error(`${path} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

/** Waits for a toast with exactly this text (toasts live in the top-right .toaster). */
export async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator('.toaster').getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 });
}

/** Waits for an inline validation message (role=alert) with exactly this text. */
export async function expectAlert(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
}

export async function waitForPath(page: Page, path: string, timeout = 10_000): Promise<void> {
  await page.waitForURL((u) => u.pathname === path, { timeout });
}

/** The newest mail in the app's outbox (.eml files), decoded from quoted-printable if needed. */
export async function latestOutboxMail(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'outbox');
  for (let i = 0; i < 40; i++) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    const last = files.at(-1);
    if (last) {
      const raw = await readFile(join(dir, last), 'utf8');
      return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no mail in the outbox');
}

export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export type { BrowserContext };
