import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser.js';
import { testPatientName } from '../helpers/test-patients.js';
import {
  collectPageErrors,
  signedInContext,
  signUpViaApi,
  startClientApp,
  type BrowserContext,
  type TClientApp,
} from './support/client-ui.js';

/**
 * The patient timeline in Chromium against the real server, worker and model (issue 18): two
 * analyses of one profile, the timeline on the profiles page (films, dates, trend charts, links
 * to each chat) and the second report's "Compared with the study of" section.
 */
const fixture = (name: string) => readFileSync(new URL(`../fixtures/cxr/${name}`, import.meta.url));
const FILMS = ['pneumonia-bacterial-kermany-person876-bacteria-2799.jpg', 'normal-kermany-normal2-im-0551-0001.jpg'];

describe('patient timeline in Chromium', () => {
  let ctx: TClientApp;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const patientName = testPatientName('Timeline');
  const analysed: { chatId: string }[] = [];

  beforeAll(async () => {
    ctx = await startClientApp({ worker: true });
    const account = await signUpViaApi(ctx.app.url);
    context = await signedInContext(ctx.browser, ctx.app.url, account.token, { width: 1280, height: 900 });
    const created = await context.request.post(`${ctx.app.url}/api/profile/create`, {
      data: { profile: { full_name: patientName, age: '61' } },
    });
    assert.equal(created.status(), 201, await created.text());
    const profileId: string = (await created.json()).data.profile_id;
    // Through the spec's analyzer with profile_id: it answers once each report is stored.
    for (const film of FILMS) {
      const res = await context.request.post(`${ctx.app.url}/api/chat/analyzer`, {
        multipart: {
          profile: JSON.stringify({ full_name: patientName, age: 61 }),
          profile_id: profileId,
          image: { name: 'chest.jpg', mimeType: 'image/jpeg', buffer: fixture(film) },
        },
        timeout: 120_000,
      });
      assert.equal(res.status(), 200, await res.text());
      const data = (await res.json()).data;
      assert.equal(data.status, 'completed');
      analysed.push({ chatId: data.chat_id });
    }
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('the profiles page shows the timeline: both films oldest first, dates, per-finding trend charts', async () => {
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.getByRole('button', { name: `Timeline of ${patientName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Timeline: ${patientName}` });
    await dialog.waitFor();
    const items = dialog.getByRole('list', { name: 'Analyses, oldest first' }).getByRole('listitem');
    await items.nth(1).waitFor();
    assert.equal(await items.count(), 2);
    // The thumbnails are the stored films, loaded through the authorised image route.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.timeline-thumb')].every((i) => (i as HTMLImageElement).naturalWidth > 0),
    );
    assert.equal(await dialog.locator('time').count(), 2);
    const charts = dialog.getByRole('img').filter({ has: page.locator('circle') });
    assert.ok((await charts.count()) >= 2, 'one trend chart per finding');
    assert.match((await charts.first().getAttribute('aria-label')) ?? '', /%.*,.*%/);
    await screenshot(page, 'timeline-modal');
    await items.nth(1).getByRole('button', { name: 'Open chat' }).click();
    await page.waitForURL((u) => u.search.includes(analysed[1]!.chatId));
  });

  test("the second analysis's report holds the comparison section", async () => {
    await page
      .getByRole('heading', { name: /Compared with the study (of|uploaded on) \d{4}-\d{2}-\d{2}/ })
      .waitFor({ timeout: 20_000 });
    const table = page.locator('table').filter({ hasText: 'Previous' });
    assert.ok(await table.isVisible());
    assert.match(await table.innerText(), /new|resolved|higher|lower|unchanged/);
    await screenshot(page, 'timeline-comparison');
    assert.deepEqual(errors, []);
  });
});
