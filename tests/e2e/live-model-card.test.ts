import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ZRegistryEntry } from '@contracts/model/registry.js';
import { promoteModel } from '../../server/src/services/models/change-model-status.js';
import { importTestModel, writeOperatingPoints } from '../helpers/import-test-model.js';
import { screenshot } from '../helpers/browser.js';
import {
  collectPageErrors,
  signedInContext,
  signUpViaApi,
  startClientApp,
  type TClientApp,
} from './support/client-ui.js';

/**
 * Issue 47: with an imported model live, the model card page first shows that model's own card
 * (from GET /api/model-card/live: its import, its cohort operating points, its promotion) and says
 * the shipped card below describes a model that is not live. Signed out, the page is the shipped card.
 */
const IMPORTED = 'xrv-card';
let work: string;
let ctx: TClientApp;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-live-card-e2e-'));
  const registryDir = path.join(work, 'models');
  const file = await importTestModel(work, registryDir, IMPORTED);
  await writeOperatingPoints(file, {
    measuredAt: '2026-11-21T09:00:00.000Z',
    cohortSha256: 'd'.repeat(64),
    studies: 44,
    findings: [
      {
        label: 'pleural_effusion',
        threshold: 0.37,
        positives: 14,
        negatives: 30,
        sensitivity: 0.7857,
        specificity: 0.7,
        auroc: 0.7512,
      },
    ],
  });
  ctx = await startClientApp({ seed: true, env: { MODEL_REGISTRY_DIR: registryDir } });
});
afterAll(async () => {
  await ctx?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the model card page with an imported model live (issue 47)', () => {
  test("signed in: the live model's own card first, then the shipped card said to be not live", async () => {
    const deps = ctx.opened?.deps;
    assert.ok(deps);
    const account = await signUpViaApi(ctx.app.url, { name: 'Dr Promoter' });
    await promoteModel({ ...deps, meta: null, userId: account.user.id, modelId: IMPORTED, confirm: true });
    const entry = ZRegistryEntry.parse(
      JSON.parse(await readFile(path.join(work, 'models', IMPORTED, 'registry.json'), 'utf8')),
    );

    const context = await signedInContext(ctx.browser, ctx.app.url, account.token, { width: 1280, height: 900 });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${ctx.app.url}/model-card`);
    await page
      .getByRole('heading', { level: 1, name: `Model card: ${entry.name} ${entry.version} (live at this site)` })
      .waitFor();
    assert.equal(await page.getByTestId('live-sha256').getAttribute('title'), entry.sha256);
    const points = page.getByRole('table', { name: /Operating points measured on this site's labelled cohort/ });
    assert.match(await points.locator('caption').innerText(), /44 studies, measured 2026-11-21/);
    for (const p of entry.operatingPoints!.findings) {
      const row = points.locator(`tr[data-label="${p.label}"]`);
      assert.equal(await row.getByTestId('sensitivity').innerText(), pct(p.sensitivity));
      assert.equal(await row.getByTestId('specificity').innerText(), pct(p.specificity));
      assert.equal(await row.getByTestId('auroc').innerText(), p.auroc!.toFixed(3));
    }
    assert.match(await page.getByTestId('live-model-card').innerText(), /Promoted on \d{4}-\d{2}-\d{2} by Dr Promoter/);
    assert.match(
      await page.getByTestId('shipped-not-live').innerText(),
      /describes the shipped model, .* which is not live/,
    );
    await page.getByRole('heading', { level: 2, name: /^The shipped model, not live here/ }).waitFor();
    await screenshot(page, 'model-card-live-imported');
    assert.deepEqual(errors, []);
    await context.close();

    // Signed out the live model is not known: the shipped card, as before.
    const anon = await ctx.browser.newPage();
    await anon.goto(`${ctx.app.url}/model-card`);
    await anon.getByRole('heading', { level: 1, name: /^Model card/ }).waitFor();
    assert.equal(await anon.getByTestId('live-model-card').count(), 0);
    await anon.close();
  });
});
