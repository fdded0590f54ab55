import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadConfig, outboxDir } from '@contracts/config/server-config.js';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import { decodeQuotedPrintable } from '../../auth/smtp-inbox.js';
import type { E2eApp } from '../../helpers/e2e-app.js';
import { trpcMutation } from './client-ui.js';

/**
 * Makes a listed account a site administrator the way a person does (issue 23 N3): ask for the
 * confirmation e-mail, read it from the app's outbox (no SMTP_URL in e2e), open its link. With a
 * page (signed in as that account), the link is opened in the browser, which must land on
 * Settings saying so in words, on the Site tab (issue 41 part 6). Returns the link's path.
 */
export async function confirmSiteAdmin(app: E2eApp, token: string, page?: Page): Promise<string> {
  await trpcMutation(app.url, token, 'site.requestAdminVerification', undefined);
  const dir = outboxDir(loadConfig({ ...app.env, LOG_LEVEL: 'silent' }));
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  const mail = decodeQuotedPrintable(await readFile(join(dir, files[files.length - 1] ?? ''), 'utf8'));
  const link = /\/api\/site\/verify-admin\?token=([A-Za-z0-9_-]+)/.exec(mail);
  assert.ok(link, 'a confirmation link in the outbox');
  if (page) {
    await page.goto(`${app.url}${link[0]}`);
    await page.waitForURL((u) => u.pathname === '/chat/settings');
    await page.getByRole('status').filter({ hasText: SITE_MESSAGES.verified }).waitFor();
    await page.getByRole('tab', { name: 'Site', selected: true }).waitFor();
    return link[0];
  }
  const res = await fetch(`${app.url}${link[0]}`, { redirect: 'manual' });
  assert.equal(res.status, 303);
  return link[0];
}
