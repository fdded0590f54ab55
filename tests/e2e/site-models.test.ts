import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TComparison } from '@contracts/schemas/models.js';
import { radiograph } from '../analysis/support/fixtures.js';
import { writeOperatingPoints } from '../helpers/import-test-model.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { xrvShapedOnnx } from '../helpers/onnx-graph.js';
import { collectPageErrors, signedInContext, signUpViaApi, uniqueEmail } from './support/client-ui.js';
import { confirmSiteAdmin } from './support/confirm-site-admin.js';

/**
 * Issue 47 in Chromium against the real server and worker processes: a site admin imports a
 * torchxrayvision-shaped model (built here, random weights) through Settings → Site → Models,
 * sees a refusal in the import's words, shadows the model, reads its comparison on signed
 * studies (analysed and signed through the API, as readers would), promotes it with the
 * confirmation below the minimum, sees it live, rolls back to the shipped model and finds the
 * whole story in the history. Waits are generous: the machine that runs this is small.
 */
const MODEL = 'xrv-e2e';
const SLOW = { timeout: 180_000 };
const STUDIES = 3;

describe('site models in Chromium (issue 47)', () => {
  let app: E2eApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let token: string;
  const adminEmail = uniqueEmail().replace('clinician-', 'models-admin-');

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });

  const row = (id: string) => page.getByTestId(`site-model-${id}`);
  const statusOf = (id: string, status: string) =>
    row(id).getByRole('cell', { name: status, exact: true }).waitFor(SLOW);
  const toast = (text: RegExp | string) => page.locator('.toaster').getByText(text).first().waitFor(SLOW);

  async function openModels(): Promise<void> {
    await page.goto(`${app.url}/chat/settings`);
    await page.getByRole('tab', { name: 'Site' }).click(SLOW);
    await page.getByRole('heading', { name: 'Models', exact: true }).waitFor(SLOW);
  }

  /** One analysis through the spec's analyzer, waited for, then signed at the revision just read. */
  async function analyseAndSign(profileId: string, label: 'normal' | 'pneumonia' | 'covid19'): Promise<void> {
    const form = new FormData();
    form.append('profile', JSON.stringify({ full_name: 'Shadow Patient', age: 61 }));
    form.append('profile_id', profileId);
    form.append(
      'image',
      new Blob([new Uint8Array(await radiograph({ label, side: 600 }))], { type: 'image/jpeg' }),
      'chest.jpg',
    );
    const res = await fetch(`${app.url}/api/chat/analyzer`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { data: { analysis_id: string; status: string } };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.status, 'completed');
    const url = `/api/analyses/${body.data.analysis_id}/report`;
    const got = (await (await api(url)).json()) as { data: { revision: unknown } };
    const signed = await api(`${url}/sign`, { method: 'POST', body: JSON.stringify({ revision: got.data.revision }) });
    assert.equal(signed.status, 200, await signed.text());
  }

  beforeAll(async () => {
    app = await startE2eApp(
      {
        ARGON2_MEMORY_KIB: '4096',
        ARGON2_TIME_COST: '1',
        SITE_ADMIN_EMAILS: adminEmail,
        MODEL_PROMOTE_MIN_STUDIES: '50',
        MODEL_IMPORT_WAIT_MS: '240000',
        // Small, so the limit's refusal is seen in the browser; the generated graphs are a few KB.
        MODEL_IMPORT_MAX_MB: '0.5',
        ANALYSIS_WAIT_MS: '180000',
        ANALYSIS_TIMEOUT_MS: '180000',
        RATE_LIMIT_DISABLED: 'true',
      },
      { worker: true },
    );
    browser = await launchBrowser();
    const admin = await signUpViaApi(app.url, { name: 'Dr Models Admin', email: adminEmail });
    token = admin.token;
    await confirmSiteAdmin(app, token);
    context = await signedInContext(browser, app.url, token, { width: 1280, height: 1000 });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test("the import form: refusals in the import's words, then a model imported as a candidate", async () => {
    await openModels();
    await row('shipped').waitFor(SLOW);
    await statusOf('shipped', 'live');

    const form = page.getByRole('form', { name: 'Import a model' });
    await form.getByLabel('ONNX file *').setInputFiles({
      name: 'old.onnx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(xrvShapedOnnx({ opset: 9 })),
    });
    // The manifest file input shows for the manifest contract only.
    await form.getByLabel('Contract').selectOption('manifest');
    await form.getByLabel('Manifest (JSON) *').waitFor();
    await form.getByLabel('Contract').selectOption('torchxrayvision');
    assert.equal(await form.getByLabel('Manifest (JSON) *').count(), 0);
    await form.getByLabel('Name *').fill('too-old');
    await form.getByRole('button', { name: 'Import' }).click();
    await page
      .getByTestId('import-model-refusal')
      .filter({ hasText: 'the graph uses opset 9; the import needs opset 11 or newer' })
      .waitFor(SLOW);

    // Over MODEL_IMPORT_MAX_MB: the server stops reading and the browser shows its words.
    await form.getByLabel('ONNX file *').setInputFiles({
      name: 'big.onnx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(2 * 1024 * 1024, 1),
    });
    await form.getByLabel('Name *').fill('too-big');
    await form.getByRole('button', { name: 'Import' }).click();
    await page
      .getByTestId('import-model-refusal')
      .filter({ hasText: 'the file is over 0.5 MB; the limit is 0.5 MB (MODEL_IMPORT_MAX_MB)' })
      .waitFor(SLOW);

    await form.getByLabel('ONNX file *').setInputFiles({
      name: 'xrv.onnx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(xrvShapedOnnx()),
    });
    await form.getByLabel('Name *').fill(MODEL);
    await form.getByLabel('Version').fill('2');
    await form.getByRole('button', { name: 'Import' }).click();
    await toast(new RegExp(`^${MODEL} imported as a candidate\\. Fixture films: normal-covid-normal-6288\\.jpg`));
    await statusOf(MODEL, 'candidate');
    await row(MODEL).getByText('(imported by Dr Models Admin)').waitFor();
    assert.equal(await page.getByTestId('import-model-refusal').count(), 0);
    await screenshot(page, 'site-models-imported');
  });

  test('shadow, then the comparison on signed studies', async () => {
    await row(MODEL).getByRole('button', { name: 'Shadow' }).click();
    await toast(`${MODEL} now runs in shadow on every new study`);
    await statusOf(MODEL, 'shadow');

    const created = await api('/api/profile/create', {
      method: 'POST',
      body: JSON.stringify({ profile: { full_name: 'Shadow Patient', age: '61' } }),
    });
    const createdText = await created.text();
    assert.equal(created.status, 201, createdText);
    const profileId = (JSON.parse(createdText) as { data: { profile_id: string } }).data.profile_id;
    for (const label of ['normal', 'pneumonia', 'covid19'] as const) await analyseAndSign(profileId, label);
    // The shadow runs after each live report, on its own queue: wait until all three are compared.
    let studies = 0;
    for (let i = 0; i < 240 && studies < STUDIES; i++) {
      const c = (await (await api(`/api/site/models/${MODEL}/comparison`)).json()) as { data: TComparison };
      studies = c.data.studies;
      if (studies < STUDIES) await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(studies, STUDIES);

    await row(MODEL).getByRole('button', { name: 'Compare' }).click();
    const comparison = page.getByTestId('site-model-comparison');
    await comparison.getByText(`${STUDIES} signed studies of 1 patients`).waitFor(SLOW);
    await comparison.getByText(/signed reads .*not a reference standard/).waitFor();
    assert.ok((await comparison.locator('tbody tr').count()) > 0);
    await screenshot(page, 'site-models-comparison');
  });

  test('promote with the confirmation below the minimum, see it live, roll back to the shipped model; the history tells it all', async () => {
    await writeOperatingPoints(join(app.dataDir, 'models', MODEL, 'registry.json'));

    // Without the confirmation the server refuses, in words.
    await row(MODEL).getByRole('button', { name: 'Promote' }).click();
    await toast(new RegExp(`${MODEL} has been compared on ${STUDIES} signed studies; promotion needs 50`));
    await page.getByLabel('Promote on fewer compared studies than 50').check();
    await row(MODEL).getByRole('button', { name: 'Promote' }).click();
    await toast(`${MODEL} is live: new analyses use it`);
    await statusOf(MODEL, 'live');
    await statusOf('shipped', 'retired');

    await page.getByRole('button', { name: 'Roll back to the previous live model' }).click();
    await toast('Rolled back: shipped is live again for new analyses');
    await statusOf('shipped', 'live');
    await statusOf(MODEL, 'retired');

    // Still true after a reload: the history, newest first, with who.
    await openModels();
    const history = page.getByTestId('site-model-history').getByRole('listitem');
    await history.nth(3).waitFor(SLOW);
    const lines = await history.allInnerTexts();
    assert.equal(lines.length, 4, lines.join('\n'));
    assert.match(lines[0]!, /Dr Models Admin — rollback shipped \(xrv-e2e → shipped\)/);
    assert.match(
      lines[1]!,
      /Dr Models Admin — promote xrv-e2e \(shipped → xrv-e2e\), compared on 3 signed studies, confirmed below the minimum/,
    );
    assert.match(lines[2]!, /Dr Models Admin — shadow xrv-e2e/);
    assert.match(lines[3]!, /Dr Models Admin — import xrv-e2e/);
    await screenshot(page, 'site-models-history');
    assert.deepEqual(errors, []);
  });
});
