import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { createChat } from '../helpers/factories.js';
import { screenshot } from '../helpers/browser.js';
import {
  collectPageErrors,
  expectToast,
  openSignedInPage,
  signedInContext,
  startClientApp,
  trpcMutation,
  waitForPath,
  type TClientApp,
} from './support/client-ui.js';

const LONG_TITLE = 'Follow-up of the right lower lobe opacity';

/** A tRPC batch answer carrying a server error (for the failure toasts). */
function failWith500(route: Route) {
  return route.fulfill({
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify([
      {
        error: {
          message: 'Internal server error',
          code: -32603,
          data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
        },
      },
    ]),
  });
}

describe('web client: routes, sidebar and chat history, 401, mobile, error screen', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  let account: Awaited<ReturnType<typeof openSignedInPage>>['account'];
  const chatIds: Record<string, string> = {};
  beforeAll(async () => {
    ctx = await startClientApp({ seed: true });
    ({ account, page, errors } = await openSignedInPage(ctx));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('/ and unknown paths are replaced by /chat/profiles; the history starts empty', async () => {
    await page.goto(`${ctx.app.url}/`);
    await waitForPath(page, '/chat/profiles');
    await page.goto(`${ctx.app.url}/no/such/page`);
    await waitForPath(page, '/chat/profiles');
    await page.goto(`${ctx.app.url}/chat/nothing-here`);
    await waitForPath(page, '/chat/profiles');
    await page.getByText('No chats yet').waitFor();
    assert.ok(await page.getByText('Click New Chat to start').isVisible());
    // Replace, not push: going back does not return to the unknown path.
    assert.equal((await page.evaluate(() => history.length)) <= 4, true);
  });

  test('chat history: newest first, 28-character titles, patient name, active chat', async () => {
    const deps = ctx.opened?.deps;
    assert.ok(deps);
    const old = await createChat(deps, account.user.id, {
      title: 'Older chat',
      withMessages: true,
      patient: { full_name: 'Amina Diallo', age: '34', medical_history: 'None' },
      createdAt: new Date(Date.now() - 60_000),
    });
    const recent = await createChat(deps, account.user.id, {
      title: LONG_TITLE,
      withMessages: true,
      patient: { full_name: 'Peter Novak', age: '71', medical_history: 'None' },
    });
    chatIds.old = old.chat.id;
    chatIds.recent = recent.chat.id;
    await page.reload();
    const items = page.locator('.history-item');
    await items.first().waitFor();
    assert.equal(await items.count(), 2);
    assert.equal(await items.nth(0).locator('.history-title').textContent(), `${LONG_TITLE.slice(0, 28)}...`);
    assert.equal(await items.nth(0).locator('.history-patient').textContent(), 'Peter Novak');
    assert.equal(await items.nth(1).locator('.history-title').textContent(), 'Older chat');
    await items.nth(1).locator('.history-open').click();
    await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.get('chat') === chatIds.old);
    assert.equal(await items.nth(1).getAttribute('class'), 'history-item active');
    assert.equal(await items.nth(0).getAttribute('class'), 'history-item ');
    await screenshot(page, 'chat-history-active');
  });

  test('inline rename: Escape cancels, blank cancels, Enter saves, the confirm button saves', async () => {
    const item = page.locator('.history-item').filter({ hasText: 'Older chat' });
    await page.getByRole('button', { name: 'Rename chat Older chat' }).click();
    const input = page.getByRole('textbox', { name: 'Chat title' });
    await input.fill('Something else');
    await input.press('Escape');
    await input.waitFor({ state: 'detached' });
    await item.getByText('Older chat').waitFor();

    await page.getByRole('button', { name: 'Rename chat Older chat' }).click();
    await input.fill('   ');
    await input.press('Enter');
    await input.waitFor({ state: 'detached' });
    await item.getByText('Older chat').waitFor();
    assert.equal(await page.locator('.toaster .toast').filter({ hasText: 'Chat title updated' }).count(), 0);

    await page.getByRole('button', { name: 'Rename chat Older chat' }).click();
    await input.fill('Renamed with Enter');
    await input.press('Enter');
    await expectToast(page, 'Chat title updated');
    await page.locator('.history-title', { hasText: 'Renamed with Enter' }).waitFor();
    // Main screens close toasts after 3000 ms.
    const toast = page.locator('.toaster .toast').filter({ hasText: 'Chat title updated' });
    await page.waitForTimeout(1500);
    assert.equal(await toast.count(), 1, 'still shown after 1.5 s');
    await toast.waitFor({ state: 'detached', timeout: 4000 });

    await page.getByRole('button', { name: 'Rename chat Renamed with Enter' }).click();
    await input.fill('Renamed with the button');
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.locator('.history-title', { hasText: 'Renamed with the button' }).waitFor();

    await page.route('**/trpc/history.editTitle*', failWith500);
    await page.getByRole('button', { name: 'Rename chat Renamed with the button' }).click();
    await input.fill('Will fail');
    await input.press('Enter');
    await expectToast(page, 'Failed to update chat title');
    await page.getByRole('button', { name: 'Cancel editing' }).click();
    await page.unroute('**/trpc/history.editTitle*');
  });

  test('delete asks for confirmation; deleting the current chat clears the selection', async () => {
    await page.route('**/trpc/history.delete*', failWith500);
    await page.getByRole('button', { name: `Delete chat ${LONG_TITLE}` }).click();
    await page.getByRole('dialog', { name: 'Delete Chat?' }).getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Failed to delete chat');
    await page.unroute('**/trpc/history.delete*');

    // The open chat is 'Renamed with the button' (the older one).
    await page.getByRole('button', { name: 'Delete chat Renamed with the button' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Chat?' });
    await screenshot(page, 'chat-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Chat deleted successfully');
    await page.waitForURL((u) => u.pathname === '/chat' && !u.searchParams.has('chat'));
    await page.locator('.history-item').nth(1).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.history-item').count(), 1);
  });

  test('keyboard: the sidebar and the New Chat modal are reachable without a mouse', async () => {
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.getByRole('heading', { name: 'Patient Profiles' }).waitFor();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'New Chat');
    }
    assert.ok(reached, 'New Chat is reachable with Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Select Profile for New Chat' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Select Profile for New Chat' }).waitFor({ state: 'detached' });
  });

  test('the mobile layout (375 px): menu toggle, overlay, no horizontal scrolling', async () => {
    const context = await signedInContext(ctx.browser, ctx.app.url, account.token, { width: 375, height: 740 });
    const mobile = await context.newPage();
    const mobileErrors = collectPageErrors(mobile);
    await mobile.goto(`${ctx.app.url}/chat/profiles`);
    await mobile.getByRole('heading', { name: 'Patient Profiles' }).waitFor();
    assert.equal(await mobile.getByRole('button', { name: 'New Chat' }).isVisible(), false, 'sidebar hidden');
    assert.ok(await mobile.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal scroll');
    await screenshot(mobile, 'mobile-profiles');
    await mobile.getByRole('button', { name: 'Open menu' }).click();
    await mobile.getByRole('button', { name: 'New Chat' }).waitFor();
    await mobile.locator('.sidebar-overlay').waitFor();
    await mobile.waitForTimeout(300); // the slide-in transition
    await screenshot(mobile, 'mobile-menu');
    await mobile.locator('.sidebar-overlay').click({ position: { x: 350, y: 400 } });
    await mobile.locator('.sidebar-overlay').waitFor({ state: 'detached' });
    await mobile.getByRole('button', { name: 'Open menu' }).click();
    await mobile.getByRole('button', { name: 'Settings' }).click();
    await waitForPath(mobile, '/chat/settings');
    await mobile.locator('.sidebar-overlay').waitFor({ state: 'detached' });
    assert.ok(await mobile.evaluate(() => document.documentElement.scrollWidth <= 375));
    await screenshot(mobile, 'mobile-settings');
    await mobile.goto(`${ctx.app.url}/login`);
    await mobile.getByRole('heading', { name: 'Sign In' }).waitFor();
    assert.ok(await mobile.evaluate(() => document.documentElement.scrollWidth <= 375));
    await screenshot(mobile, 'mobile-login');
    await mobile.goto(`${ctx.app.url}/docs`);
    await mobile.getByRole('heading', { name: 'Chest Doctor AI', exact: true }).waitFor();
    assert.ok(await mobile.evaluate(() => document.documentElement.scrollWidth <= 375));
    await screenshot(mobile, 'mobile-docs');
    assert.deepEqual(mobileErrors, []);
    await context.close();
  });

  test('/docs: tabs, the three plans, the disclaimer, support contact, links to signup and login', async () => {
    const docs = await ctx.browser.newPage();
    await docs.goto(`${ctx.app.url}/docs`);
    await docs.getByRole('heading', { name: 'Chest Doctor AI', exact: true }).waitFor();
    const tabs = await docs.getByRole('tab').allTextContents();
    assert.deepEqual(tabs, ['Overview', 'Features', 'Guide', 'Pricing', 'Testimonials', 'FAQ']);
    assert.ok(await docs.getByText('not a substitute for professional medical judgement').isVisible());
    assert.ok(await docs.locator('footer a[href^="mailto:"]').isVisible());
    assert.equal(await docs.locator('a[href="/signup"]').first().isVisible(), true);
    assert.equal(await docs.locator('a[href="/login"]').first().isVisible(), true);
    await docs.getByRole('tab', { name: 'Guide' }).click();
    assert.equal(await docs.locator('.guide-step').count(), 6);
    await docs.getByRole('tab', { name: 'Pricing' }).click();
    const plans = docs.locator('.plan-card');
    assert.equal(await plans.count(), 3);
    assert.match((await plans.nth(0).textContent()) ?? '', /Starter\$99\/monthUp to 100 analyses/);
    assert.match((await plans.nth(1).textContent()) ?? '', /Most PopularProfessional\$299\/monthUp to 500 analyses/);
    assert.match((await plans.nth(2).textContent()) ?? '', /Enterprise\$999\/monthUnlimited/);
    assert.ok(await docs.getByText('Volume discounts on annual plans.').isVisible());
    await screenshot(docs, 'docs-pricing');
    // No unbacked marketing figures.
    const text = (await docs.locator('body').textContent()) ?? '';
    for (const tab of ['Overview', 'Features', 'Testimonials', 'FAQ']) {
      await docs.getByRole('tab', { name: tab }).click();
      const panel = (await docs.getByRole('tabpanel').textContent()) ?? '';
      for (const claim of ['98.5%', '15+', '500+', '50,000+', '4.9/5', 'HIPAA compliant.']) {
        assert.ok(!panel.includes(claim), `${tab} does not claim ${claim}`);
      }
    }
    assert.ok(text.length > 0);
    await docs.close();
  });

  test('any 401 clears the session and returns to /login', async () => {
    await page.goto(`${ctx.app.url}/chat/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.evaluate(() => sessionStorage.setItem('draft', 'x'));
    // The session ends elsewhere (another tab signs out): the server's session cache hears of it
    // at once, as it does of every revocation the app makes.
    await trpcMutation(ctx.app.url, account.token, 'settings.logout', {});
    await page.getByRole('button', { name: 'Profiles', exact: true }).click();
    await waitForPath(page, '/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    assert.deepEqual(await page.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)]), []);
    assert.equal(await page.locator('.sidebar').count(), 0);
  });

  test("an unhandled render error shows 'Oops! Something went wrong' with its two actions", async () => {
    const p = await ctx.browser.newPage();
    await p.goto(`${ctx.app.url}/docs`);
    await p.getByRole('heading', { name: 'Chest Doctor AI', exact: true }).waitFor();
    await p.evaluate(() => localStorage.setItem('cxr.debug.renderError', '1'));
    await p.reload();
    await p.getByRole('heading', { name: 'Oops! Something went wrong' }).waitFor();
    assert.ok(await p.getByRole('button', { name: 'Go to Home' }).isVisible());
    await screenshot(p, 'error-screen');
    await p.getByRole('button', { name: 'Reload Page' }).click();
    await p.getByRole('heading', { name: 'Chest Doctor AI', exact: true }).waitFor();
    await p.close();
    assert.deepEqual(errors, []);
  });
});
