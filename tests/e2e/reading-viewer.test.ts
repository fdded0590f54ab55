import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from '../helpers/browser.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { stowStudies } from '../helpers/stow-body.js';
import {
  expectToast,
  openSignedInPage,
  signedInContext,
  startClientApp,
  trpcMutation,
  type TClientApp,
} from './support/client-ui.js';

const TEAM = 'Viewer room';
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

const chatOf = (page: Page) => new URL(page.url()).searchParams.get('chat');

/** The element's box lies wholly inside the viewport (what a reader sees without scrolling). */
async function inView(page: Page, selector: string): Promise<{ top: number; bottom: number }> {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is rendered`);
  const vp = page.viewportSize()!;
  const where = `${selector} at y ${Math.round(box.y)}–${Math.round(box.y + box.height)}, x ${Math.round(box.x)}–${Math.round(box.x + box.width)} in ${vp.width}×${vp.height}`;
  assert.ok(box.y >= 0 && box.y + box.height <= vp.height, `${where}: vertically in view`);
  assert.ok(box.x >= 0 && box.x + box.width <= vp.width, `${where}: horizontally in view`);
  return { top: box.y, bottom: box.y + box.height };
}

/**
 * Issue 49 item 5, a viewer a radiologist reads in: at 1366×768, 1440×900 and 1920×1080 a study
 * opens with the film and the report side by side, both wholly in view, focus in the report; the
 * reading shortcuts (listed on screen) sign, go to the next study, and sign and go next.
 */
describe('web client: the reading viewer at three screen sizes, and its keyboard shortcuts', () => {
  let ctx: TClientApp;
  let token: string;
  let teamId: string;
  beforeAll(async () => {
    ctx = await startClientApp({ worker: true });
    const opened = await openSignedInPage(ctx, { name: 'Dr Vera Viewer' });
    token = opened.account.token;
    await opened.context.close();
    teamId = (await trpcMutation<{ id: string }>(ctx.app.url, token, 'team.create', { name: TEAM })).id;
    const { key } = await trpcMutation<{ key: string }>(ctx.app.url, token, 'apiKey.create', {
      name: 'PACS',
      team_id: teamId,
    });
    const films = await Promise.all(
      [0, 1, 2].map((index) =>
        buildDxInstance({ index, patientId: `RV-${index}`, patientName: `VIEWER^CASE${index}` }),
      ),
    );
    await stowStudies(
      ctx.app.url,
      key,
      films.map((f) => f.bytes),
    );
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** A page of this size on the team's worklist, every study analysed. */
  async function worklistAt(size: { width: number; height: number }) {
    const context = await signedInContext(ctx.browser, ctx.app.url, token, size);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${ctx.app.url}/chat/worklist`);
    await page.locator('#space-select').selectOption(teamId);
    await page.getByRole('heading', { name: `Worklist — ${TEAM}` }).waitFor();
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="worklist-row"]').length >= 1 &&
        !/Queued|Received/.test(document.querySelector('.worklist-table tbody')?.textContent ?? ''),
      undefined,
      { timeout: 240_000 },
    );
    return { context, page, errors };
  }

  test('film and report side by side, both in view on open, focus in the report; screenshots', async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const size of SIZES) {
      const { context, page, errors } = await worklistAt(size);
      await page.locator('[data-testid="worklist-row"]').first().getByRole('button').first().click();
      await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.has('chat'));
      const impression = page.getByTestId('report-panel').getByLabel('Impression');
      await impression.waitFor({ timeout: 60_000 });
      await page.locator('.chat-viewer-stage img').first().waitFor();
      // Let the page settle (the thread's auto-scroll fired 150 ms after its messages before issue 49).
      await page.waitForTimeout(600);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `viewer-${size.width}x${size.height}.png`) });
      const film = await inView(page, '.chat-viewer-stage');
      const report = await inView(page, '[data-testid="report-panel"]');
      const filmBox = (await page.locator('.chat-viewer-stage').boundingBox())!;
      const reportBox = (await page.getByTestId('report-panel').boundingBox())!;
      assert.ok(filmBox.x + filmBox.width <= reportBox.x, 'side by side: the film left of the report');
      assert.ok(film.top < report.bottom && report.top < film.bottom, 'side by side: they share rows');
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page opens at its top');
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'report-impression',
        'focus starts on the Impression',
      );
      assert.ok(
        await page.evaluate(() => document.activeElement?.closest('[data-testid="report-panel"]') !== null),
        'focus is in the report',
      );
      const listed = await page.getByTestId('reading-shortcuts').textContent();
      assert.equal(listed, 'Keyboard: Alt+Shift+S sign · Alt+Shift+Enter sign and next');
      assert.deepEqual(errors, []);
      await context.close();
    }
  });

  test('Alt+Shift+S signs; Alt+Shift+N opens the next study; Alt+Shift+Enter signs it and opens the next', async () => {
    const { context, page, errors } = await worklistAt({ width: 1440, height: 900 });
    await page.locator('[data-testid="worklist-row"]').first().getByRole('button').first().click();
    await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.has('chat'));
    const panel = page.getByTestId('report-panel');
    const impression = panel.getByLabel('Impression');
    await impression.waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.activeElement?.id === 'report-impression');
    // Typing in the report, Shift and Alt alone, never sign: the text goes in the field.
    await page.keyboard.type(' Seen.');
    assert.match(await impression.inputValue(), /Seen\./);
    assert.equal(await panel.getByText('Draft', { exact: true }).count(), 1);

    const first = chatOf(page);
    await page.keyboard.press('Alt+Shift+KeyS');
    await expectToast(page, 'Report signed');
    await panel.getByTestId('report-signed').waitFor();
    assert.match((await panel.textContent()) ?? '', /Seen\./, 'what was typed is what was signed');
    assert.equal(await page.getByTestId('reading-shortcuts').textContent(), 'Keyboard: Alt+Shift+N next study');

    await page.keyboard.press('Alt+Shift+KeyN');
    await page.waitForURL((u) => u.searchParams.get('chat') !== first);
    const second = chatOf(page);
    await page.getByTestId('report-panel').getByLabel('Impression').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.activeElement?.id === 'report-impression');

    const signed = page.waitForResponse((r) => r.url().includes('/trpc/report.sign') && r.status() === 200);
    await page.keyboard.press('Alt+Shift+Enter');
    await signed;
    await page.waitForURL((u) => u.searchParams.get('chat') !== second);
    await page.getByTestId('report-panel').getByLabel('Impression').waitFor({ timeout: 60_000 });

    // Both signed studies say so on the worklist.
    await page.goto(`${ctx.app.url}/chat/worklist`);
    await page.getByLabel('Show signed and reviewed').check();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="worklist-report"]')].filter((e) =>
          e.textContent?.startsWith('Signed by'),
        ).length === 2,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });
});
