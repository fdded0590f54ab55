import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { createChat } from '../helpers/factories.js';
import { screenshot } from '../helpers/browser.js';
import {
  expectAlert,
  expectToast,
  openSignedInPage,
  startClientApp,
  trpcMutation,
  waitForPath,
  type TClientApp,
} from './support/client-ui.js';

async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('tabpanel').waitFor();
}

describe('web client: settings', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  let account: Awaited<ReturnType<typeof openSignedInPage>>['account'];
  beforeAll(async () => {
    ctx = await startClientApp({ seed: true });
    ({ account, page, errors } = await openSignedInPage(ctx, { name: 'Dr Grace Hopper' }));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('profile tab: read-only email, name validation, name change', async () => {
    await page.goto(`${ctx.app.url}/chat/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    assert.deepEqual(await page.getByRole('tab').allTextContents(), ['Profile', 'Password', 'Danger Zone']);
    const email = page.getByLabel('Email Address');
    assert.equal(await email.inputValue(), account.email);
    assert.equal(await email.getAttribute('readonly'), '');
    assert.ok(await page.getByText('Email cannot be changed').isVisible());
    await screenshot(page, 'settings-profile');
    await page.getByLabel('Full Name').fill(' Al ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectAlert(page, 'Name must be at least 3 characters');
    await page.getByLabel('Full Name').fill('Dr Grace B. Hopper');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Name updated successfully!');
    await page.locator('.sidebar-user-name', { hasText: 'Dr Grace B. Hopper' }).waitFor();
  });

  test('API keys under Profile: name required, the new key shown once, listed by its prefix, revoked after a confirmation', async () => {
    const panel = page.getByRole('region', { name: 'API keys', exact: true });
    await panel.getByText('No API keys yet.').waitFor();
    await panel.getByRole('button', { name: 'Create API key' }).click();
    await expectAlert(page, API_KEY_MESSAGES.nameRequired);
    await panel.getByLabel('Key name').fill('Research batch laptop');
    await panel.getByRole('button', { name: 'Create API key' }).click();
    const shown = panel.getByRole('status');
    await shown.getByText(API_KEY_MESSAGES.created).waitFor();
    const key = await shown.getByLabel('Your new API key').inputValue();
    assert.match(key, /^cxr_/);
    const me = () => fetch(`${ctx.app.url}/api/history/get-init-info`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal((await me()).status, 200, 'the key shown is the one that works');

    assert.deepEqual(await panel.getByRole('columnheader').allTextContents(), [
      'Name',
      'Key',
      'Created',
      'Last used',
      'Actions',
    ]);
    const row = panel.getByRole('row').filter({ hasText: 'Research batch laptop' });
    const prefix = ((await row.locator('code').textContent()) ?? '').replace(/…$/, '');
    assert.ok(prefix.length > 4 && prefix.length < key.length && key.startsWith(prefix), prefix);
    await screenshot(page, 'settings-api-key-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    assert.equal(await panel.getByLabel('Your new API key').count(), 0, 'shown once: gone once dismissed');

    await row.getByRole('button', { name: 'Revoke API key Research batch laptop' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke' }).click();
    await expectToast(page, API_KEY_MESSAGES.revoked);
    await panel.getByText('No API keys yet.').waitFor();
    assert.equal((await me()).status, 401);
  });

  test('password tab: validation, wrong current password (no logout), change', async () => {
    await openTab(page, 'Password');
    const current = page.getByLabel('Current Password');
    const next = page.getByLabel('New Password', { exact: true });
    const confirm = page.getByLabel('Confirm New Password');
    const submit = page.getByRole('button', { name: 'Update Password' });
    assert.equal(await page.getByRole('button', { name: 'Show password' }).count(), 3);
    await current.fill(account.password);
    await next.fill('short');
    await confirm.fill('short');
    await submit.click();
    await expectAlert(page, 'Password must be at least 8 characters');
    await next.fill('a new long passphrase');
    await confirm.fill('a different passphrase');
    await submit.click();
    await expectAlert(page, 'Passwords do not match');
    await current.fill('not my password');
    await confirm.fill('a new long passphrase');
    await submit.click();
    await expectToast(page, 'Current password is incorrect');
    assert.equal(new URL(page.url()).pathname, '/chat/settings');
    await screenshot(page, 'settings-password');
    await current.fill(account.password);
    await submit.click();
    await expectToast(page, 'Password updated successfully!');
    assert.equal(await current.inputValue(), '');
    account.password = 'a new long passphrase';
  });

  test('danger zone: clear all chats and profiles with a confirmation that cannot close while processing', async () => {
    const deps = ctx.opened?.deps;
    assert.ok(deps, 'seeded app');
    await createChat(deps, account.user.id, { title: 'First chat', withMessages: true });
    await createChat(deps, account.user.id, { title: 'Second chat', withMessages: true });
    await trpcMutation(ctx.app.url, account.token, 'profile.create', {
      patientName: 'Ruth Chen',
      age: 61,
      additionalFields: [],
    });
    await page.reload();
    await page.getByText('Second chat').waitFor();
    await openTab(page, 'Danger Zone');
    for (const title of ['Clear All Chats', 'Clear All Profiles', 'Logout', 'Delete Account']) {
      assert.ok(await page.getByRole('heading', { name: title }).isVisible(), title);
    }
    await screenshot(page, 'settings-danger-zone');

    await page.route('**/trpc/settings.clearChats*', async (route) => {
      await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Clear All Chats' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear All Chats?' });
    await dialog.getByRole('button', { name: 'Clear All Chats' }).click();
    await dialog.getByRole('button', { name: 'Processing...' }).waitFor();
    await page.keyboard.press('Escape');
    assert.ok(await dialog.isVisible(), 'Escape does not close a processing dialog');
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled(), true);
    await expectToast(page, 'All chats deleted successfully');
    await page.getByText('No chats yet').waitFor();
    await page.unroute('**/trpc/settings.clearChats*');

    await page.getByRole('button', { name: 'Clear All Profiles' }).click();
    await page
      .getByRole('dialog', { name: 'Clear All Profiles?' })
      .getByRole('button', { name: 'Clear All Profiles' })
      .click();
    await expectToast(page, 'All profiles deleted successfully');
    await page.getByRole('button', { name: 'Profiles', exact: true }).click();
    await page.getByRole('heading', { name: 'No Profiles Yet' }).waitFor();
  });

  test('delete account: password required, wrong password refused, then deleted', async () => {
    await page.goto(`${ctx.app.url}/chat/settings`);
    await openTab(page, 'Danger Zone');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Account?' });
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Password', { exact: true }).fill('   ');
    assert.equal(await confirm.isDisabled(), true, 'a blank password keeps confirm disabled');
    await dialog.getByLabel('Password', { exact: true }).fill('wrong password!');
    await dialog.getByRole('button', { name: 'Show password' }).click();
    assert.equal(await dialog.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
    await screenshot(page, 'delete-account-dialog');
    await confirm.click();
    await expectToast(page, 'Incorrect password');
    assert.equal(new URL(page.url()).pathname, '/chat/settings');
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await confirm.click();
    await expectToast(page, 'Account deleted successfully');
    await waitForPath(page, '/login');
    // The account is gone: logging in again fails.
    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Invalid email or password');
  });

  test('logout clears the session and goes to /login, even when the server call fails', async () => {
    const { context, page: p } = await openSignedInPage(ctx);
    await p.goto(`${ctx.app.url}/chat/settings`);
    await p.evaluate(() => localStorage.setItem('leftover', '1'));
    await openTab(p, 'Danger Zone');
    await p.getByRole('button', { name: 'Logout' }).click();
    await expectToast(p, 'Logged out successfully');
    await waitForPath(p, '/login');
    assert.equal(await p.evaluate(() => localStorage.length), 0);
    await p.goto(`${ctx.app.url}/chat/profiles`);
    await waitForPath(p, '/login');

    const { context: c2, page: p2 } = await openSignedInPage(ctx);
    await p2.goto(`${ctx.app.url}/chat/settings`);
    await openTab(p2, 'Danger Zone');
    await p2.route('**/trpc/settings.logout*', (route) => route.abort('connectionrefused'));
    await p2.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(p2, '/login');
    await c2.close();
    await context.close();
    assert.deepEqual(errors, []);
  });
});
