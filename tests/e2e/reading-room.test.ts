import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { stowStudies as stow } from '../helpers/stow-body.js';
import { expectToast, openSignedInPage, startClientApp, trpcMutation, type TClientApp } from './support/client-ui.js';

const TEAM = 'Reading room';
const READER = 'Dr Rita Reader';

const rows = (page: Page) => page.locator('[data-testid="worklist-row"]');
const chatOf = (page: Page) => new URL(page.url()).searchParams.get('chat');

/**
 * Issue 41's walk: a team reader goes from the worklist through a study to a signed report and on
 * to the next study without leaving the viewer ("Sign and next" claims it), signs that one too
 * and amends it; each signature ends the study's claim. Prints the time from opening a study to
 * its signature.
 */
describe('web client: the reading room, worklist → report → signed → next', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ctx = await startClientApp({ worker: true });
    const opened = await openSignedInPage(ctx, { name: READER, viewport: { width: 1440, height: 900 } });
    ({ page, errors } = opened);
    const token = opened.account.token;
    const team = await trpcMutation<{ id: string }>(ctx.app.url, token, 'team.create', { name: TEAM });
    const { key } = await trpcMutation<{ key: string }>(ctx.app.url, token, 'apiKey.create', {
      name: 'PACS',
      team_id: team.id,
    });
    const films = await Promise.all(
      [0, 1].map((index) => buildDxInstance({ index, patientId: `RR-${index}`, patientName: `READING^CASE${index}` })),
    );
    await stow(
      ctx.app.url,
      key,
      films.map((f) => f.bytes),
    );
    await page.goto(`${ctx.app.url}/chat/worklist`);
    await page.locator('#space-select').selectOption(team.id);
    await page.getByRole('heading', { name: `Worklist — ${TEAM}` }).waitFor();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('claim, open, edit, Sign and next (claimed), sign, amend; the worklist says "Signed by"', async () => {
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="worklist-row"]').length === 2 &&
        !/Queued|Received/.test(document.querySelector('.worklist-table tbody')?.textContent ?? ''),
      undefined,
      { timeout: 240_000 },
    );
    // Issue 41's columns: the patient ID, accession and study date the films carried, and the wait.
    assert.deepEqual((await page.getByTestId('worklist-patient-id').allTextContents()).sort(), ['ID RR-0', 'ID RR-1']);
    assert.deepEqual(await page.getByTestId('worklist-accession').allTextContents(), ['ACC1', 'ACC1']);
    assert.deepEqual(
      await page
        .getByTestId('worklist-study-date')
        .allInnerTexts()
        .then((t) => t.map((x) => x.split('\n')[0])),
      ['2026-11-01', '2026-11-01'],
    );
    const waiting = rows(page).first().getByTestId('worklist-waiting').locator('span');
    assert.match((await waiting.textContent()) ?? '', /^(under 1 min|\d+ min)$/);
    assert.match((await waiting.getAttribute('title')) ?? '', /^Received /);

    // The skip link is the first stop of Tab, shown when focused, and lands on the first row's control.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="worklist-row"]').length === 2);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to worklist' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to worklist');
    assert.ok(((await skip.boundingBox())?.y ?? -1) >= 0, 'visible on focus');
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('[data-testid="worklist-row"]') !== null),
      true,
      "the first row's control has focus",
    );
    const firstName = await rows(page).first().getByRole('button').first().textContent();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), firstName);

    const first = rows(page).first();
    // "Mark reviewed" is the claim holder's: not offered before Claim (issue 41).
    assert.equal(await first.getByRole('button', { name: 'Mark reviewed' }).count(), 0);
    await first.getByRole('button', { name: 'Claim' }).click();
    await first.getByText('You are reading this').waitFor();
    // Focus moved to the row's next control, not to <body>.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Release');

    const opened = Date.now();
    await first.getByRole('button').first().click();
    await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.has('chat'));
    const firstChat = chatOf(page);
    const panel = page.getByTestId('report-panel');
    const impression = panel.getByLabel('Impression');
    await impression.waitFor({ timeout: 60_000 });
    // Issue 48: a numbered list of Likely findings, or one of the draft's two fixed lines; no percentages.
    const drafted = await impression.inputValue();
    assert.match(
      drafted,
      /^(1\. |No acute cardiopulmonary abnormality\.$|Abnormal appearance; no specific finding named: please review\.$)/,
    );
    assert.doesNotMatch(drafted, /%/);
    assert.match(await panel.getByLabel('Findings').inputValue(), /lines, tubes and devices/i);
    await impression.fill(`${await impression.inputValue()}\nReviewed against the film.`);
    const signed = page.waitForResponse((r) => r.url().includes('/trpc/report.sign') && r.status() === 200);
    await panel.getByRole('button', { name: 'Sign and next' }).click();
    await signed;
    const openToSigned = Date.now() - opened;
    await page.waitForURL((u) => u.searchParams.get('chat') !== firstChat);
    await page.getByTestId('report-panel').getByLabel('Impression').waitFor({ timeout: 60_000 });
    const walk = Date.now() - opened;
    console.log(
      `reading room: opening a study to its signature ${openToSigned} ms; to the next study's draft on screen ${walk} ms`,
    );
    await screenshot(page, 'reading-room-next');

    // The next study is claimed for the reader: the viewer's reading bar says so. Release and
    // Claim it there; focus goes to the control that replaced the one pressed.
    const bar = page.getByTestId('reading-bar');
    await bar.getByText('You are reading this').waitFor();
    await bar.getByRole('button', { name: 'Release' }).click();
    await bar.getByRole('button', { name: 'Claim' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Claim');
    await bar.getByRole('button', { name: 'Claim' }).click();
    await bar.getByText('You are reading this').waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Release');

    // Sign it plainly, then amend it.
    const second = page.getByTestId('report-panel');
    await second.getByRole('button', { name: 'Sign', exact: true }).click();
    await expectToast(page, 'Report signed');
    const line = second.getByTestId('report-signed');
    await line.waitFor();
    assert.match((await line.textContent()) ?? '', new RegExp(`^Signed by ${READER} at `));
    // Focus moves to the signature line once it renders (the effect runs after the line appears).
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('data-testid') === 'report-signed',
      undefined,
      {
        timeout: 10_000,
      },
    );
    assert.equal(await second.getByLabel('Impression').count(), 0, 'signed: read-only');
    assert.equal(await second.getByTestId('report-deliveries').count(), 0, 'no destination configured: no "Sent to"');
    await second.getByLabel('Addendum').fill('Compared with the outside film: unchanged.');
    await second.getByRole('button', { name: 'Sign addendum' }).click();
    await second.getByText('Amended', { exact: true }).waitFor();
    await screenshot(page, 'reading-room-signed');

    // Both signed: out of the way by default; the filter shows them.
    await page.goto(`${ctx.app.url}/chat/worklist`);
    await page.getByRole('heading', { name: `Worklist — ${TEAM}` }).waitFor();
    // Issue 49: a worklist whose studies are all signed says so, not "No studies".
    await page.getByRole('heading', { name: 'All studies are read' }).waitFor();
    await page.getByLabel('Show signed and reviewed').check();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="worklist-row"]').length === 2);
    const reports = await page.getByTestId('worklist-report').allTextContents();
    assert.deepEqual(reports.sort(), [`Amended. Signed by ${READER}`, `Signed by ${READER}`]);
    assert.deepEqual(await page.getByTestId('worklist-waiting').allTextContents(), ['Read', 'Read']);
    // Each signature ended its claim (issue 49): no reader, no Release, no Mark reviewed on a signed row.
    assert.equal(await page.getByText('You are reading this').count(), 0);
    for (const name of ['Claim', 'Release', 'Mark reviewed'])
      assert.equal(await page.getByRole('button', { name }).count(), 0, name);
    assert.deepEqual(errors, []);
  });
});
