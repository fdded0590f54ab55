import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';

/** The client is built from this model's files (model-facts.ts reads them at build time). */
const MANIFEST = join('models', 'cxr', 'manifest.json');

describe('the running app in Chromium', () => {
  let app: E2eApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startE2eApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
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
    assert.ok(
      await page
        .getByRole('link', { name: /sign up/i })
        .first()
        .isVisible(),
    );
    await screenshot(page, 'docs');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test.skipIf(!existsSync(MANIFEST) && 'no model installed')(
    '/docs lists what the installed model assesses and does not, from its manifest',
    async () => {
      const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
        findings: { display?: string; label: string }[];
        notAssessed?: { display: string }[];
      };
      const page = await browser.newPage();
      await page.goto(`${app.url}/docs`);
      const assessed = page.getByTestId('assessed-findings');
      await assessed.waitFor();
      const shown = (await assessed.locator('li').allInnerTexts()).map((t) => t.replace(/ \(summary score\)$/, ''));
      for (const f of manifest.findings) assert.ok(shown.includes(f.display ?? f.label), `${f.label} is listed`);
      const notAssessed = manifest.notAssessed ?? [];
      if (notAssessed.length) {
        assert.deepEqual(
          await page.getByTestId('not-assessed-findings').locator('li').allInnerTexts(),
          notAssessed.map((n) => n.display),
        );
      } else {
        assert.equal(await page.getByTestId('not-assessed-findings').count(), 0);
      }
      await page.close();
    },
  );
});
