import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';

describe('the running app in Chromium', () => {
  let app: E2eApp;
  let browser: Browser;
  before(async () => {
    app = await startE2eApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('/readyz reports ready', async () => {
    const res = await fetch(`${app.url}/readyz`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { status: string }).status, 'ready');
  });

  test('/docs renders the public page', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/docs`);
    await page.getByRole('heading', { name: 'Chest Doctor AI', exact: true }).first().waitFor();
    assert.ok(await page.getByRole('link', { name: /sign up/i }).first().isVisible());
    await screenshot(page, 'docs');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
