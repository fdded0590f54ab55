import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { stowStudies as stow } from '../helpers/stow-body.js';
import { openSignedInPage, startClientApp, trpcMutation, waitForPath, type TClientApp } from './support/client-ui.js';

const RANK = ['Urgent', 'Review', 'Routine', 'Pending', '—'];

describe('web client: the DICOM worklist', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ctx = await startClientApp({ worker: true });
    const opened = await openSignedInPage(ctx, { viewport: { width: 1280, height: 800 } });
    ({ page, errors } = opened);
    const { key } = await trpcMutation<{ key: string }>(ctx.app.url, opened.account.token, 'apiKey.create', {
      name: 'router',
    });
    const films = await Promise.all(
      [0, 1, 2, 3].map((index) =>
        buildDxInstance({ index, patientId: `E2E-${index}`, patientName: `WORKLIST^CASE${index}` }),
      ),
    );
    const ct = await buildDxInstance({ modality: 'CT', patientId: 'E2E-CT', patientName: 'WORKLIST^CT' });
    await stow(ctx.app.url, key, [...films.map((f) => f.bytes), ct.bytes]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('sorted by urgency, most urgent first; the CT is skipped with its reason; a click opens the chat', async () => {
    await page.goto(`${ctx.app.url}/chat/worklist`);
    await page.getByRole('heading', { name: 'Worklist' }).waitFor();
    // Live updates: the page polls until every film has been analysed by the worker.
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="worklist-row"]').length === 5 &&
        !/Queued|Received/.test(document.querySelector('.worklist-table tbody')?.textContent ?? ''),
      undefined,
      { timeout: 240_000 },
    );
    const badges = await page.locator('[data-testid="worklist-row"] .urgency-badge').allTextContents();
    const ranks = badges.map((b) => RANK.indexOf(b.trim()));
    assert.ok(
      ranks.every((r) => r >= 0),
      badges.join(', '),
    );
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
      `most urgent first: ${badges.join(', ')}`,
    );
    // Issue 41's columns: the IDs, accession and study date each film carried, the time waited.
    assert.deepEqual((await page.getByTestId('worklist-patient-id').allTextContents()).sort(), [
      'ID E2E-0',
      'ID E2E-1',
      'ID E2E-2',
      'ID E2E-3',
      'ID E2E-CT',
    ]);
    assert.deepEqual(await page.getByTestId('worklist-accession').allTextContents(), Array(5).fill('ACC1'));
    for (const text of await page.getByTestId('worklist-waiting').allTextContents())
      assert.match(text, /^(under 1 min|\d+ min)$/);
    // The unread (all five) are shown; the filter for the signed and reviewed starts off.
    assert.equal(await page.getByLabel('Show signed and reviewed').isChecked(), false);
    const last = page.locator('[data-testid="worklist-row"]').last();
    assert.match((await last.textContent()) ?? '', /Skipped.*Modality CT is not a chest radiograph/);
    await screenshot(page, 'worklist');

    await page.getByRole('button', { name: 'Failed or skipped' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="worklist-row"]').length === 1);

    await page.getByRole('button', { name: 'All' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="worklist-row"]').length === 5);
    await page.locator('[data-testid="worklist-row"]').first().getByRole('button').click();
    await waitForPath(page, '/chat');
    assert.match(page.url(), /\/chat\?chat=[0-9a-f-]{36}$/);
    assert.deepEqual(errors, []);
  });
});
