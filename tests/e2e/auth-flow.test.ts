import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { screenshot } from '../helpers/browser.js';
import {
  collectPageErrors,
  expectAlert,
  expectToast,
  latestOutboxMail,
  PASSWORD,
  signUpViaApi,
  startClientApp,
  uniqueEmail,
  waitForPath,
  type TClientApp,
} from './support/client-ui.js';

describe('web client: sign up, log in, forgot and reset password', () => {
  let ctx: TClientApp;
  beforeAll(async () => {
    ctx = await startClientApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('signup shows every validation message, then creates the account and goes to /chat/profiles', async () => {
    const page = await ctx.browser.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${ctx.app.url}/signup`);
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    for (const label of ['Full Name', 'Email Address', 'Password', 'Confirm Password']) {
      assert.ok(await page.getByLabel(label, { exact: true }).isVisible(), label);
    }
    assert.ok(await page.getByText('At least 8 characters').isVisible());
    await screenshot(page, 'signup');
    const submit = page.getByRole('button', { name: 'Create Account' });
    await page.getByLabel('Full Name').fill('  Al ');
    await submit.click();
    await expectAlert(page, 'Name must be at least 3 characters long');
    await page.getByLabel('Full Name').fill('Dr Ada Clinician');
    await page.getByLabel('Email Address').fill('not an email');
    await submit.click();
    await expectAlert(page, 'Please enter a valid email address');
    const email = uniqueEmail();
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await submit.click();
    await expectAlert(page, 'Password must be at least 8 characters long');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(`${PASSWORD}!`);
    await submit.click();
    await expectAlert(page, 'Passwords do not match');
    // The show/hide toggle reveals the password.
    await page.getByRole('button', { name: 'Show password' }).first().click();
    assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await submit.click();
    await expectToast(page, 'Account created successfully!');
    await waitForPath(page, '/chat/profiles');
    await page.getByRole('heading', { name: 'Patient Profiles' }).waitFor();

    // The same address again: the server's message.
    const second = await ctx.browser.newPage();
    await second.goto(`${ctx.app.url}/signup`);
    await second.getByLabel('Full Name').fill('Someone Else');
    await second.getByLabel('Email Address').fill(email);
    await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await second.getByLabel('Confirm Password').fill(PASSWORD);
    await second.getByRole('button', { name: 'Create Account' }).click();
    await expectToast(second, 'Signup failed. Email might already be in use.');
    assert.equal(new URL(second.url()).pathname, '/signup');
    await second.close();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('login in two steps: email, password, back to email, wrong password, success', async () => {
    const account = await signUpViaApi(ctx.app.url);
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/login`);
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Sign up' }).isVisible());
    assert.ok(await page.getByRole('link', { name: 'Forgot password?' }).isVisible());
    await screenshot(page, 'login-email-step');
    await page.getByLabel('Email Address').fill('nobody@nowhere');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectAlert(page, 'Please enter a valid email address');
    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Back to email' }).click();
    assert.equal(await page.getByLabel('Email Address').inputValue(), account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectAlert(page, 'Password must be at least 8 characters');
    await page.getByLabel('Password', { exact: true }).fill('a wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Invalid email or password');
    assert.equal(new URL(page.url()).pathname, '/login');
    await screenshot(page, 'login-password-step');
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Login successful!');
    await waitForPath(page, '/chat/profiles');
    await page.close();
  });

  test('a visitor of a protected page goes to /login and comes back there after signing in', async () => {
    const account = await signUpViaApi(ctx.app.url);
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/chat/settings`);
    await waitForPath(page, '/login');
    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await waitForPath(page, '/chat/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.close();
  });

  test('forgot password, then reset through the emailed link; a used link is refused', async () => {
    const account = await signUpViaApi(ctx.app.url);
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/forgot-password`);
    await page.getByLabel('Email Address').fill('bad-address');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expectAlert(page, 'Please enter a valid email address');
    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expectToast(page, 'Password reset link sent to your email!');
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await screenshot(page, 'forgot-password-sent');
    assert.ok(await page.getByRole('link', { name: 'Back to Login' }).isVisible());

    const mail = await latestOutboxMail(ctx.app.dataDir);
    const match = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail);
    assert.ok(match, 'the mail carries a reset link');
    const link = `${ctx.app.url}/reset-password?token=${match[1]}`;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Create New Password' }).waitFor();
    assert.equal(await page.getByText('Minimum 8 characters', { exact: true }).count(), 1);
    await screenshot(page, 'reset-password');
    const save = page.getByRole('button', { name: 'Save New Password' });
    await page.getByLabel('New Password').fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await save.click();
    await expectAlert(page, 'Password must be at least 8 characters long');
    const newPassword = 'a brand new passphrase';
    await page.getByLabel('New Password').fill(newPassword);
    await page.getByLabel('Confirm Password').fill(`${newPassword}?`);
    await save.click();
    await expectAlert(page, 'Passwords do not match');
    await page.getByLabel('Confirm Password').fill(newPassword);
    await save.click();
    await expectToast(page, 'Password reset successfully! Please login with your new password.');
    await waitForPath(page, '/login');

    await page.getByLabel('Email Address').fill(account.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await waitForPath(page, '/chat/profiles');

    // The link works once: a second use is refused, then /forgot-password after 3 s.
    const again = await ctx.browser.newPage();
    await again.goto(link);
    await again.getByLabel('New Password').fill('another passphrase');
    await again.getByLabel('Confirm Password').fill('another passphrase');
    await again.getByRole('button', { name: 'Save New Password' }).click();
    await expectAlert(again, 'Reset link has expired or is invalid. Please request a new one.');
    const t0 = Date.now();
    await waitForPath(again, '/forgot-password', 8000);
    assert.ok(Date.now() - t0 > 1500, 'the redirect waits (3 s)');
    await again.close();
    await page.close();
  });

  test('reset password without a token: error, disabled button, redirect to /forgot-password', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/reset-password`);
    await expectAlert(page, 'Invalid or missing reset token. Please request a new password reset link.');
    assert.equal(await page.getByRole('button', { name: 'Save New Password' }).isDisabled(), true);
    await waitForPath(page, '/forgot-password', 8000);
    await page.close();
  });

  test('no answer from the server gives the network error toast', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.app.url}/login`);
    await page.route('**/trpc/**', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Email Address').fill(uniqueEmail());
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectToast(page, 'Network error. Please check your connection and try again.');
    await page.close();
  });
});
