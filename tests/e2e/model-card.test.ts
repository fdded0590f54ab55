import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { analyses } from '../../server/src/db/schema.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';
import { screenshot } from '../helpers/browser.js';
import { createChat } from '../helpers/factories.js';
import { testPatientName } from '../helpers/test-patients.js';
import {
  collectPageErrors,
  signedInContext,
  signUpViaApi,
  startClientApp,
  type TClientApp,
} from './support/client-ui.js';

/**
 * The public model card page (/model-card) in Chromium. The client is built from the installed
 * model's files, so the test reads the same files and compares what the page shows with them.
 */
const MODEL_DIR = process.env.MODEL_DIR ?? join('models', 'cxr');
const installed = existsSync(join(MODEL_DIR, 'manifest.json')) && existsSync(join(MODEL_DIR, 'metrics.json'));
const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(MODEL_DIR, file), 'utf8')) as T;

interface TMetrics {
  findingLabels?: string[];
  findings?: Record<string, { auc: number; aucCi95: [number, number] }>;
  external?: { candidates: Record<string, { auc: number; shipped: boolean }> };
}

async function openCard(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: /^Model card/ }).waitFor();
}

describe('the model card page', () => {
  let ctx: TClientApp;
  beforeAll(async () => {
    ctx = await startClientApp({ seed: true });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test.skipIf(!installed)(
    'loads without login and shows the manifest version and each shipped finding’s AUROC from metrics.json',
    async () => {
      const manifest = readJson<{ modelVersion: string; sha256: string }>('manifest.json');
      const metrics = readJson<TMetrics>('metrics.json');
      const page = await ctx.browser.newPage();
      const errors = collectPageErrors(page);
      await openCard(page, `${ctx.app.url}/model-card`);
      assert.equal(new URL(page.url()).pathname, '/model-card', 'no redirect to the login page');
      assert.equal(await page.getByTestId('model-version').innerText(), manifest.modelVersion);
      assert.equal(await page.getByTestId('model-sha256').getAttribute('title'), manifest.sha256);

      const table = page.getByRole('table', { name: /Each candidate finding/ });
      const shipped = metrics.findingLabels ?? [];
      assert.ok(shipped.length > 0, 'metrics.json lists shipped findings');
      for (const label of shipped) {
        const figure = metrics.findings?.[label];
        assert.ok(figure, `${label} has a figure in metrics.json`);
        const row = table.locator(`tr[data-label="${label}"]`);
        assert.match(await row.innerText(), /Shipped/);
        const [lo, hi] = figure.aucCi95.map((v) => v.toFixed(3));
        assert.equal(await row.getByTestId('auc').innerText(), `${figure.auc.toFixed(3)} [${lo}, ${hi}]`);
      }
      // The plot is an image with a name, and draws one bar group per candidate in the table.
      const chart = page.getByRole('img', { name: /ROC AUC of each candidate finding/ });
      assert.equal(await chart.locator('g[data-label]').count(), await table.locator('tbody tr').count());
      for (const name of ['Intended use', 'Per source and age group', 'Limitations']) {
        await page.getByRole('heading', { level: 2, name }).waitFor();
      }
      assert.ok(
        (await page
          .getByRole('table', { name: /^Per source/ })
          .locator('tbody tr')
          .count()) > 0,
        'per-source rows',
      );
      // Model 4: the films from other hospitals, each candidate with its figure and the file's caveat.
      const external = metrics.external;
      if (external) {
        const ext = page.getByRole('table', { name: /films from other hospitals/ });
        assert.equal(await ext.locator('tbody tr').count(), Object.keys(external.candidates).length);
        for (const [label, c] of Object.entries(external.candidates)) {
          const row = ext.locator(`tr[data-label="${label}"]`);
          assert.match(await row.innerText(), c.shipped ? /Shipped/ : /Not shown/);
          assert.match(await row.innerText(), new RegExp(`${c.auc.toFixed(3)} \\[`));
        }
        assert.match(await page.locator('#external').innerText(), /optimistic/);
      }
      await screenshot(page, 'model-card');
      assert.deepEqual(errors, []);
      await page.close();
    },
  );

  test('/docs links to it, and the old /docs#model-card address lands on it', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/docs`);
    await page.getByRole('link', { name: 'model card' }).first().click();
    await page.waitForURL(/\/model-card$/);
    await page.getByRole('heading', { level: 1, name: /^Model card/ }).waitFor();
    await page.goto(`${ctx.app.url}/docs#model-card`);
    await page.waitForURL(/\/model-card$/);
    await page.close();
  });

  test('the findings panel and the exports link to it', async () => {
    const deps = ctx.opened?.deps;
    assert.ok(deps);
    const account = await signUpViaApi(ctx.app.url);
    const context = await signedInContext(ctx.browser, ctx.app.url, account.token, { width: 1280, height: 900 });
    const { chat, analysis } = await createChat(deps, account.user.id, {
      patient: { full_name: testPatientName('Card'), age: '40', medical_history: 'None' },
      withImage: true,
      withMessages: true,
      analysisStatus: 'completed',
    });
    const result = sampleResultV2();
    await deps.db
      .update(analyses)
      .set({
        result: result as unknown as Record<string, unknown>,
        modelVersion: result.modelVersion,
        completedAt: new Date(),
      })
      .where(eq(analyses.id, analysis!.id));

    const page = await context.newPage();
    await page.goto(`${ctx.app.url}/chat?chat=${chat.id}`);
    const link = page.getByRole('region', { name: 'Findings' }).getByRole('link', { name: /model card/ });
    await link.waitFor();
    const [card] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await card.getByRole('heading', { level: 1, name: /^Model card/ }).waitFor();
    assert.equal(new URL(card.url()).pathname, '/model-card');

    const res = await context.request.get(`${ctx.app.url}/api/export/${chat.id}.json`);
    assert.equal(res.status(), 200, await res.text());
    const { model } = (await res.json()) as { model: { cardUrl: string } };
    assert.equal(model.cardUrl, `${ctx.app.url}/model-card`);
    await openCard(card, model.cardUrl);
    await context.close();
  });
});
