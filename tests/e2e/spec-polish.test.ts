import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { colourMap, DRAW_FROM } from '@contracts/heatmap-look.js';
import { chats, patientProfiles } from '../../server/src/db/schema.js';
import { createChat } from '../helpers/factories.js';
import { testPatientName } from '../helpers/test-patients.js';
import {
  expectAlert,
  expectToast,
  openSignedInPage,
  signUpViaApi,
  startClientApp,
  trpcMutation,
  waitForPath,
  type TClientApp,
} from './support/client-ui.js';

/** Issue 16's spec rows 1-10 and the dialog, toast and heatmap-legend fixes, in Chromium. */
const FIXTURE = readFileSync(new URL('../fixtures/cxr/normal-covid-normal-6288.jpg', import.meta.url));

async function newProfile(url: string, token: string, label: string): Promise<{ id: string; name: string }> {
  const name = testPatientName(label);
  const p = await trpcMutation<{ id: string }>(url, token, 'profile.create', {
    patientName: name,
    age: '47',
    additionalFields: [],
  });
  return { id: p.id, name };
}

async function pickFromNewChat(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
  await dialog.getByRole('button', { name: new RegExp(name.slice(-8)) }).click();
  await page.getByRole('heading', { name: 'Start Your Analysis' }).waitFor();
}

describe('spec polish (issue 16)', () => {
  let ctx: TClientApp;
  beforeAll(async () => {
    ctx = await startClientApp({ seed: true });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const signedInPage = () => openSignedInPage(ctx, { viewport: { width: 1280, height: 900 } });

  test('1. picking a profile creates the local chat "Chat with {name}" in the sidebar before any upload', async () => {
    const { account, context, page } = await signedInPage();
    const profile = await newProfile(ctx.app.url, account.token, 'Local');
    await page.goto(`${ctx.app.url}/chat`);
    await page.getByText('No chats yet').waitFor();
    await pickFromNewChat(page, profile.name);
    const history = page.getByRole('region', { name: 'Chat History' });
    const item = history.getByRole('button', { name: new RegExp(`^Chat with ${profile.name.slice(0, 18)}`) });
    await item.waitFor();
    assert.equal(await item.getAttribute('aria-current'), 'true', 'the local chat is the current one');
    assert.equal(await history.getByText('No chats yet').count(), 0);
    // Nothing was uploaded: the server has no chat yet.
    const list = await ctx
      .opened!.deps.db.select({ id: chats.id })
      .from(chats)
      .where(eq(chats.userId, account.user.id));
    assert.equal(list.length, 0);
    await context.close();
  });

  test('2-3. the header Create Profile button shows without profiles; a failed load is not the empty state', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.getByRole('heading', { name: 'No Profiles Yet' }).waitFor();
    assert.ok(await page.locator('.page-header').getByRole('button', { name: 'Create Profile' }).isVisible());

    const profileList = (u: URL) => u.pathname.includes('profile.list');
    await page.route(profileList, (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByRole('heading', { name: 'Could not load profiles' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'No Profiles Yet' }).count(), 0);
    await page.unroute(profileList);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No Profiles Yet' }).waitFor();
    await context.close();
  });

  /** The chat form for a new profile, with the film picked: Submit is next. */
  async function readyToSubmit(label: string) {
    const signedIn = await signedInPage();
    const profile = await newProfile(ctx.app.url, signedIn.account.token, label);
    await signedIn.page.goto(`${ctx.app.url}/chat`);
    await pickFromNewChat(signedIn.page, profile.name);
    await signedIn.page
      .locator('.chat-upload input[type=file]')
      .setInputFiles({ name: 'chest.jpg', mimeType: 'image/jpeg', buffer: FIXTURE });
    await expectToast(signedIn.page, 'Image uploaded successfully');
    return signedIn;
  }

  async function expectSignedOutWithoutFailure(page: Page): Promise<void> {
    await waitForPath(page, '/login', 15_000);
    await page.getByLabel('Email Address').waitFor();
    assert.equal(await page.locator('.sidebar').count(), 0);
    assert.equal(await page.locator('.toaster').getByText('Failed to analyze image. Please try again.').count(), 0);
  }

  const STREAM = '**/trpc/analysis.onProgress**';

  test('4. a 401 on the analysis-progress stream clears the session and goes to /login, without a failure toast', async () => {
    const { account, context, page } = await readyToSubmit('Stream');
    // The upload succeeds; the session ends (logout in another tab) before the stream opens, so
    // the stream is the call that meets the 401. No worker runs: the analysis stays queued.
    await page.route(STREAM, async (route) => {
      await trpcMutation(ctx.app.url, account.token, 'settings.logout', {});
      await route.continue();
    });
    await page.getByRole('button', { name: 'Submit Analysis' }).click();
    await expectSignedOutWithoutFailure(page);
    await context.close();
  });

  test('4. a stream refused with a bare HTTP 401 (a proxy in front): the session is checked, then /login', async () => {
    const { account, context, page } = await readyToSubmit('Proxy');
    // An EventSource refused with an HTTP status tells the page no status: the client asks
    // auth.me, whose 401 takes the one sign-out path.
    await page.route(STREAM, async (route) => {
      await trpcMutation(ctx.app.url, account.token, 'settings.logout', {});
      await route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Unauthorized"}' });
    });
    await page.getByRole('button', { name: 'Submit Analysis' }).click();
    await expectSignedOutWithoutFailure(page);
    await context.close();
  });

  test('4. a stream that fails while the session holds: the failure toast, no sign-out', async () => {
    const { context, page } = await readyToSubmit('Blip');
    await page.route(STREAM, (route) => route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' }));
    await page.getByRole('button', { name: 'Submit Analysis' }).click();
    await expectToast(page, 'Failed to analyze image. Please try again.');
    assert.equal(new URL(page.url()).pathname, '/chat');
    await page.getByRole('heading', { name: 'Start Your Analysis' }).waitFor();
    await context.close();
  });

  test('5. a logout whose server call failed keeps this browser signed out; the next visit retries it', async () => {
    const { account, context, page } = await signedInPage();
    await page.goto(`${ctx.app.url}/chat/settings`);
    await page.getByRole('tab', { name: 'Danger Zone' }).click();
    await page.route('**/trpc/settings.logout*', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/login');
    await page.unroute('**/trpc/settings.logout*');
    // The HttpOnly cookie is still there and still valid on the server...
    assert.ok((await context.cookies()).some((c) => c.name === 'token'));
    const me = () =>
      fetch(`${ctx.app.url}/trpc/auth.me`, { headers: { cookie: `token=${account.token}` } }).then((r) => r.status);
    assert.equal(await me(), 200);
    // ...but the next visit is not signed in: it retries the logout, which ends the session.
    const retried = page.waitForRequest((r) => r.url().includes('settings.logout'));
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await retried;
    await waitForPath(page, '/login');
    assert.equal(await page.locator('.sidebar').count(), 0);
    for (let i = 0; i < 20 && (await me()) !== 401; i++) await page.waitForTimeout(100);
    assert.equal(await me(), 401);
    // Signing in again works and removes the mark.
    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await waitForPath(page, '/chat/profiles');
    await page.getByRole('heading', { name: 'Patient Profiles' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('cxr.signed-out')), null);
    await context.close();
  });

  test("6 and 10. reset without a token: the error inline and as a toast, then /forgot-password; a bad token: 'Invalid reset link'", async () => {
    const page = await ctx.browser.newPage();
    const missing = 'Invalid or missing reset token. Please request a new password reset link.';
    await page.goto(`${ctx.app.url}/reset-password`);
    await expectAlert(page, missing);
    await expectToast(page, missing);
    await waitForPath(page, '/forgot-password', 6000);

    await page.goto(`${ctx.app.url}/reset-password?token=${encodeURIComponent('abc def>')}`);
    await expectAlert(page, 'Invalid reset link');
    await expectToast(page, 'Invalid reset link');
    assert.equal(await page.getByRole('button', { name: 'Save New Password' }).isDisabled(), true);
    await waitForPath(page, '/forgot-password', 6000);
    await page.close();
  });

  test('7-9. DICOM in the form (docs and hint), the auth screens describe the service, trial and 24/7 as true for self-hosting', async () => {
    const page = await ctx.browser.newPage();
    for (const path of ['/login', '/signup', '/forgot-password', '/reset-password?token=x']) {
      await page.goto(`${ctx.app.url}${path}`);
      await page.getByText('An advanced medical imaging analysis service for chest X-rays.').waitFor();
      for (const point of ['AI-powered analysis', 'Rapid results', 'Secure and private'])
        assert.ok(await page.getByText(point, { exact: true }).isVisible());
    }
    await page.goto(`${ctx.app.url}/docs`);
    await page.getByTestId('availability').waitFor();
    assert.match(await page.getByTestId('availability').innerText(), /24\/7 for as long as your server runs/);
    await page.getByRole('tab', { name: /guide/i }).click();
    assert.ok(await page.getByText(/or a DICOM \(\.dcm\) file up to 10MB/).isVisible());
    await page.getByRole('tab', { name: /pricing/i }).click();
    assert.match(await page.getByTestId('no-trial').innerText(), /No free trial needed.*installed on your own server/s);
    await page.getByRole('tab', { name: /faq/i }).click();
    await page.getByText('Which images can I upload?').click();
    assert.ok(
      await page.getByText(/DICOM \(\.dcm\) files, up to 10MB, in the upload form or through the API/).isVisible(),
    );
    assert.equal(await page.getByText(/DICOM through the API\./).count(), 0);
    await page.close();

    const { account, context, page: chat } = await signedInPage();
    const profile = await newProfile(ctx.app.url, account.token, 'Dicom');
    await chat.goto(`${ctx.app.url}/chat`);
    await pickFromNewChat(chat, profile.name);
    assert.ok(await chat.getByText('JPEG, PNG or WebP, or a DICOM (.dcm) file, max 10MB').isVisible());
    await context.close();
  });

  test("10. 'User not authenticated', 'Failed to update profile', 'Password is required'", async () => {
    const { account, context, page } = await signedInPage();
    const profile = await newProfile(ctx.app.url, account.token, 'Gone');
    await page.goto(`${ctx.app.url}/chat/profiles`);
    // Update of a profile deleted meanwhile (another tab): the server answers, refusing.
    await page.getByRole('button', { name: `Edit ${profile.name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Profile' });
    await edit.waitFor();
    await ctx.opened!.deps.db.delete(patientProfiles).where(eq(patientProfiles.id, profile.id));
    await edit.getByRole('button', { name: 'Update Profile' }).click();
    await expectToast(page, 'Failed to update profile');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.page-header').getByRole('button', { name: 'Create Profile' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Profile' });
    await create.getByLabel('Patient Name *').fill(testPatientName('Late'));
    await create.getByLabel('Age *').fill('40');

    // The session ends while the form is open (logout in another tab). Through the server, not the
    // database: its sessions cache hides a row changed behind its back for a few seconds.
    await trpcMutation(ctx.app.url, account.token, 'settings.logout', {});
    await create.getByRole('button', { name: 'Create Profile' }).click();
    await expectToast(page, 'User not authenticated');
    await waitForPath(page, '/login');
    await context.close();

    // Account deletion without a password: the dialog cannot send it (Confirm stays disabled), the API answers it.
    const other = await signUpViaApi(ctx.app.url);
    const res = await fetch(`${ctx.app.url}/api/settings/delete-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `token=${other.token}` },
      body: JSON.stringify({ confirm_delete: true }),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Password is required/);
  });

  test("10. 'Failed to create profile': a create the server refuses (a tab whose form rules are older than the server's)", async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.locator('.page-header').getByRole('button', { name: 'Create Profile' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Profile' });
    await create.getByLabel('Patient Name *').fill(testPatientName('Stale'));
    await create.getByLabel('Age *').fill('40');
    // The form's checks pass; what reaches the server is something it refuses (here a name it
    // no longer accepts), so the real server answers 400 and the create is refused.
    await page.route('**/trpc/profile.create**', async (route) => {
      const body = route.request().postDataJSON() as Record<string, { patientName: string }>;
      for (const call of Object.values(body)) call.patientName = 'ab';
      await route.continue({ postData: JSON.stringify(body) });
    });
    const answered = page.waitForResponse((r) => r.url().includes('profile.create'));
    await create.getByRole('button', { name: 'Create Profile' }).click();
    assert.equal((await answered).status(), 400);
    await expectToast(page, 'Failed to create profile');
    assert.ok(await create.isVisible(), 'the dialog stays open with its values');
    await context.close();
  });

  test('dialogs give focus back to the control that opened them', async () => {
    const { account, context, page } = await signedInPage();
    const profile = await newProfile(ctx.app.url, account.token, 'Focus');
    await page.goto(`${ctx.app.url}/chat/profiles`);
    const newChat = page.getByRole('button', { name: 'New Chat' });
    await newChat.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Select Profile for New Chat' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await newChat.evaluate((el) => el === document.activeElement), true);

    const edit = page.getByRole('button', { name: `Edit ${profile.name}` });
    await edit.click();
    await page.getByRole('dialog', { name: 'Edit Profile' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await edit.evaluate((el) => el === document.activeElement), true);

    const del = page.getByRole('button', { name: `Delete ${profile.name}` });
    await del.click();
    await page.getByRole('dialog', { name: 'Delete Profile?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await del.evaluate((el) => el === document.activeElement), true);
    await context.close();
  });

  test('a toast stays while hovered or focused and closes after the pointer leaves', async () => {
    const { context, page } = await signedInPage();
    await page.goto(`${ctx.app.url}/chat/settings`);
    await page.getByLabel('Full Name').fill('Dr Hover Tester');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const toast = page.locator('.toast').filter({ hasText: 'Name updated successfully!' });
    await toast.waitFor();
    await toast.hover();
    await page.waitForTimeout(4000); // past the 3000 ms of the main screens
    assert.ok(await toast.isVisible(), 'kept while hovered');
    await toast.getByRole('button', { name: 'Dismiss notification' }).focus();
    await page.mouse.move(5, 5);
    await page.waitForTimeout(3500);
    assert.ok(await toast.isVisible(), 'kept while focus is inside');
    await page.getByLabel('Full Name').focus();
    await toast.waitFor({ state: 'detached', timeout: 5000 });
    await context.close();
  });

  test('the viewer explains the heatmap: colour scale and opacity the overlay uses, what high and low mean', async () => {
    const { account, context, page } = await signedInPage();
    const { chat } = await createChat(ctx.opened!.deps, account.user.id, {
      patient: { full_name: testPatientName('Legend'), age: '60', medical_history: 'None' },
      withImage: { data: await sharp(FIXTURE).png().toBuffer() },
      withMessages: true,
      analysisStatus: 'completed',
    });
    await page.goto(`${ctx.app.url}/chat?chat=${chat.id}`);
    const overlay = page.getByLabel('Heatmap overlay');
    await overlay.waitFor();
    await overlay.check();
    const legend = page.locator('.heatmap-legend');
    await legend.waitFor();
    const caption = await legend.locator('figcaption').innerText();
    assert.match(caption, /High \(red\).*low \(blue\)/s);
    assert.match(caption, /not a probability/);
    assert.match(caption, /full heat covers the film at 39% opacity/); // 55 % x the slider's default 70 %
    const [r, g, b] = colourMap(DRAW_FROM);
    const bar = await legend.locator('.heatmap-legend-bar').evaluate((el) => getComputedStyle(el).backgroundImage);
    assert.ok(bar.includes(`rgba(${r}, ${g}, ${b}`), bar);
    await page.getByLabel('Overlay opacity').fill('100');
    assert.match(await legend.locator('figcaption').innerText(), /at 55% opacity/);
    await context.close();
  });
});
