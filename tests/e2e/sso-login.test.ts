import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import { SSO_MESSAGES } from '@contracts/schemas/sso.js';
import { freePort } from '../../scripts/lib/private-redis.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { idpFor, ssoEnv } from '../helpers/sso-flow.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { collectPageErrors, signedInContext, signUpViaApi, trpcMutation, waitForPath } from './support/client-ui.js';
import { confirmSiteAdmin } from './support/confirm-site-admin.js';

const OWNER_EMAIL = `sso-owner-${uniqueSuffix()}@example.org`;
const ADMIN_EMAIL = `site-admin-${uniqueSuffix()}@example.org`;

/** At the IdP's own page (oidc-provider's dev interactions): type a login, any password, consent. */
async function signInAtIdp(page: Page, idp: TTestIdp, login: string): Promise<void> {
  await page.waitForURL((u) => u.origin === idp.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever the IdP checks');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await consent.waitFor({ timeout: 10_000 });
  await consent.click();
}

/**
 * One Chromium for the file, a browser context per test. The two describes need two servers:
 * PASSWORD_LOGIN is read once, when the server starts.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('web client: single sign-on through the hospital IdP', () => {
  let idp: TTestIdp;
  let app: E2eApp;
  beforeAll(async () => {
    // The IdP must know the app's callback before the app starts, so the port is chosen here.
    const port = await freePort();
    const url = `http://localhost:${port}`;
    idp = await idpFor(url, { interactive: true });
    app = await startE2eApp(
      {
        PORT: String(port),
        PUBLIC_URL: url,
        ...ssoEnv(idp, {
          OIDC_AUTO_REGISTER: 'true',
          OIDC_ALLOWED_DOMAINS: 'hospital.example',
          OIDC_TEAM_MAP: 'cxr-radiology=radiology:radiologist,cxr-wards=radiology:clinician',
        }),
        // A mapped team is made by a site administrator (issue 39 S3).
        SITE_ADMIN_EMAILS: `${OWNER_EMAIL},${ADMIN_EMAIL}`,
      },
      { worker: false },
    );
  });
  afterAll(async () => {
    await app?.close();
    await idp?.stop();
  });

  test("click the SSO button, sign in at the IdP, land on the mapped team's worklist as its radiologist", async () => {
    const owner = await signUpViaApi(app.url, { email: OWNER_EMAIL });
    await confirmSiteAdmin(app, owner.token);
    await trpcMutation(app.url, owner.token, 'team.create', { name: 'Radiology' });
    const sub = `grey-${uniqueSuffix()}`;
    const email = `${sub}@hospital.example`;
    idp.accounts.set(sub, { email, email_verified: true, name: 'Dr Meredith Grey', groups: ['cxr-radiology'] });

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${app.url}/login`);
    const button = page.getByRole('link', { name: 'Sign in with St Elsewhere' });
    await button.waitFor();
    await screenshot(page, 'sso-login-page');
    await button.click();
    await signInAtIdp(page, idp, sub);
    await page.waitForURL((u) => u.origin === app.url && u.pathname !== '/login' && u.pathname !== '/');
    // Issue 41: a radiologist lands on the team's worklist, in the team's space, the team id dropped from the address.
    await page.getByRole('heading', { name: 'Worklist — Radiology' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/chat/worklist' && u.search === '');
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    assert.equal((me as { user: { email: string; name: string } }).user.email, email);
    const teams = await page.evaluate(async () => (await fetch('/api/teams')).json());
    assert.deepEqual(
      (teams as { data: { teams: { name: string; role: string }[] } }).data.teams.map((t) => `${t.name}:${t.role}`),
      ['Radiology:radiologist'],
    );
    await screenshot(page, 'sso-landed');

    // Settings → Profile lists the linked sign-in; with no password it is the only way in, so it
    // cannot be unlinked, and the button says why.
    await page.goto(`${app.url}/chat/settings`);
    const linked = page.getByRole('region', { name: 'Hospital sign-in' });
    const host = new URL(idp.issuer).host;
    const unlink = linked
      .getByRole('row')
      .filter({ hasText: host })
      .getByRole('button', { name: `Unlink hospital sign-in ${host}` });
    assert.equal(await unlink.isDisabled(), true);
    assert.equal(await unlink.getAttribute('title'), SSO_MESSAGES.lastSignIn);
    assert.deepEqual(await linked.getByRole('columnheader').allTextContents(), [
      'Sign-in service',
      'Linked',
      'Last used',
      'Actions',
    ]);
    assert.deepEqual(errors, []);
    await context.close();
  });

  // After the first test, which made the mapped team "Radiology".
  test('the mailed site-admin link says so in words; the site admin previews the SSO mapping on its page', async () => {
    const admin = await signUpViaApi(app.url, { email: ADMIN_EMAIL });
    const context = await signedInContext(browser, app.url, admin.token, { width: 1280, height: 900 });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const link = await confirmSiteAdmin(app, admin.token, page);
    // The link works once: a second visit lands on Settings with the refusal in words.
    await page.goto(`${app.url}${link}`);
    await page.getByRole('alert').filter({ hasText: SITE_MESSAGES.verifyInvalid }).waitFor();
    await screenshot(page, 'site-admin-link-used');

    await page.goto(`${app.url}/chat/settings`);
    await page.getByRole('tab', { name: 'Site' }).click();
    await page.getByRole('link', { name: 'SSO mapping preview' }).click();
    await waitForPath(page, '/chat/settings/sso-preview');
    const claims = page.getByLabel('Claims (JSON)');
    await claims.fill('{"sub": "nobody"');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('alert').filter({ hasText: SSO_MESSAGES.claimsNotObject }).waitFor();
    const sub = `bailey-${uniqueSuffix()}`;
    await claims.fill(JSON.stringify({ sub, email: `${sub}@hospital.example`, groups: ['cxr-radiology', 'payroll'] }));
    await page.getByRole('button', { name: 'Preview' }).click();
    const result = page.getByRole('region', { name: 'What this sign-in would do' });
    await result.getByText('Groups read from the claims: cxr-radiology, payroll.').waitFor();
    assert.deepEqual(await result.getByTestId('sso-preview-change').allInnerTexts(), [
      'Radiology\t—\tradiologist\tJoins as radiologist',
    ]);
    assert.equal(await result.getByTestId('sso-preview-summary').innerText(), 'Member of: Radiology (radiologist).');
    await screenshot(page, 'sso-preview-page');
    assert.deepEqual(errors, []);
    await context.close();

    // Anyone else: no Site tab, the page refuses, and so does the server.
    const other = await signUpViaApi(app.url);
    const otherContext = await signedInContext(browser, app.url, other.token);
    const otherPage = await otherContext.newPage();
    await otherPage.goto(`${app.url}/chat/settings`);
    await otherPage.getByRole('tab', { name: 'Profile' }).waitFor();
    assert.equal(await otherPage.getByRole('tab', { name: 'Site' }).count(), 0);
    await otherPage.goto(`${app.url}/chat/settings/sso-preview`);
    await otherPage.getByRole('alert').filter({ hasText: SITE_MESSAGES.adminsOnly }).waitFor();
    assert.equal(await otherPage.getByLabel('Claims (JSON)').count(), 0);
    await assert.rejects(
      trpcMutation(app.url, other.token, 'site.previewTeamMapping', { claims: { sub } }),
      /site.previewTeamMapping failed: 403/,
    );
    await otherContext.close();
  });

  test("a clinician of the mapped team lands on the team's patients", async () => {
    const sub = `bailey-${uniqueSuffix()}`;
    idp.accounts.set(sub, {
      email: `${sub}@hospital.example`,
      email_verified: true,
      name: 'Dr Miranda Bailey',
      groups: ['cxr-wards'],
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${app.url}/login`);
    await page.getByRole('link', { name: 'Sign in with St Elsewhere' }).click();
    await signInAtIdp(page, idp, sub);
    await page.waitForURL((u) => u.origin === app.url && u.pathname === '/chat/profiles' && u.search === '');
    const teams = await page.evaluate(async () => (await fetch('/api/teams')).json());
    const [team] = (teams as { data: { teams: { id: string; role: string }[] } }).data.teams;
    assert.equal(team?.role, 'clinician');
    await page.waitForFunction(
      (id) => (document.querySelector('#space-select') as HTMLSelectElement | null)?.value === id,
      team.id,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a refusal comes back to the login page as words, with only a code in the address', async () => {
    const sub = `eve-${uniqueSuffix()}`;
    idp.accounts.set(sub, { email: `${sub}@elsewhere.example`, email_verified: true, groups: [] });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByRole('link', { name: 'Sign in with St Elsewhere' }).click();
    await signInAtIdp(page, idp, sub);
    await waitForPath(page, '/login');
    await page.getByRole('alert').filter({ hasText: SSO_MESSAGES.domain_not_allowed }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'the code is dropped from the address once shown');
    // The password form stays (PASSWORD_LOGIN is on).
    assert.ok(await page.getByLabel('Email Address').isVisible());
    await context.close();
  });
});

describe('web client: PASSWORD_LOGIN=off', () => {
  let app: E2eApp;
  beforeAll(async () => {
    // The login page never calls the IdP, so a stopped one is enough here.
    const idp = await idpFor();
    await idp.stop();
    app = await startE2eApp({ ...ssoEnv(idp, { PASSWORD_LOGIN: 'off' }) }, { worker: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('the password form and sign-up are gone, the SSO button stays; each known refusal code has its words', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${app.url}/login`);
    await page.getByRole('link', { name: 'Sign in with St Elsewhere' }).waitFor();
    assert.equal(await page.getByLabel('Email Address').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Sign up' }).count(), 0);
    await screenshot(page, 'sso-password-off');
    for (const code of ['no_role', 'email_unverified', 'idp_unreachable', 'domain_not_allowed'] as const) {
      await page.goto(`${app.url}/login?sso_error=${code}`);
      await page.getByRole('alert').filter({ hasText: SSO_MESSAGES[code] }).waitFor();
    }
    // An unknown code shows nothing: a crafted link cannot put its own words on the page.
    await page.goto(`${app.url}/login?sso_error=${encodeURIComponent('Call 555-0100 now')}`);
    await page.getByRole('link', { name: 'Sign in with St Elsewhere' }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
