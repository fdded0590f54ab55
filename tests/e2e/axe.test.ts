import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Hl7Message } from '@medplum/core';
import { launchBrowser } from '../helpers/browser.js';
import { listenMllp, type TMllpListener } from '../helpers/mllp-listener.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { related } from '../helpers/stow-body.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { testPatientName } from '../helpers/test-patients.js';
import { expectToast, signUpViaApi, trpcMutation, uniqueEmail } from './support/client-ui.js';
import { confirmSiteAdmin } from './support/confirm-site-admin.js';

/**
 * axe-core on every screen a clinician sees (public pages, auth screens, profiles, the chat form,
 * an analysed chat with the real worker and model, each Settings tab, the dialogs open): no
 * serious or critical violation. Minor and moderate ones are printed, not failed. Swagger UI at
 * /api/docs is a third-party page: its violations are printed apart, and only what the app
 * itself puts there would be ours to fix.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FILM = readFileSync(
  new URL('../fixtures/cxr/pneumonia-bacterial-kermany-person876-bacteria-2799.jpg', import.meta.url),
);

interface TViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function axeViolations(page: Page): Promise<TViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: TViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

const describeViolation = (v: TViolation) =>
  `${v.impact ?? '?'} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n')}`;

/** Fails on serious or critical violations of this screen; prints the rest. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const other = violations.filter((v) => !blocking.includes(v));
  if (other.length > 0) console.log(`axe, ${screen} (minor/moderate):\n${other.map(describeViolation).join('\n')}`);
  assert.deepEqual(blocking.map(describeViolation), [], `${screen}: serious or critical axe violations`);
}

describe('axe-core: 0 serious or critical violations on every screen', () => {
  let app: E2eApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let ris: TMllpListener;
  const patientName = testPatientName('Axe');
  const email = uniqueEmail();

  beforeAll(async () => {
    // The account is a site administrator, so that Settings shows its Site tab as well.
    // A real MLLP listener as the RIS, so the Site tab's destinations show a configured one and its test.
    ris = await listenMllp(0, []);
    app = await startE2eApp(
      {
        ARGON2_MEMORY_KIB: '4096',
        ARGON2_TIME_COST: '1',
        SITE_ADMIN_EMAILS: email,
        REPORT_HL7_DESTINATION: `127.0.0.1:${ris.port}`,
      },
      { worker: true },
    );
    browser = await launchBrowser();
    const account = await signUpViaApi(app.url, { email });
    token = account.token;
    await confirmSiteAdmin(app, account.token);
    await trpcMutation(app.url, account.token, 'profile.create', {
      patientName,
      age: '54',
      additionalFields: [{ key: 'Smoker', value: 'no' }],
    });
    // The app's CSP (script-src 'self') would refuse the injected axe source; the test lifts it.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await context.addCookies([{ name: 'token', value: account.token, url: app.url, httpOnly: true, sameSite: 'Lax' }]);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
    await ris?.close();
  });

  test('public screens: landing, login (both steps), signup, forgot and reset password, docs (each tab), model card', async () => {
    const anon = await (await browser.newContext({ bypassCSP: true })).newPage();
    await anon.goto(`${app.url}/`);
    await anon.waitForURL((u) => u.pathname === '/login');
    await anon.getByLabel('Email Address').waitFor();
    await expectAccessible(anon, 'landing (/ signed out: the login screen)');
    await anon.getByLabel('Email Address').fill(email);
    await anon.getByRole('button', { name: 'Continue' }).click();
    await anon.getByLabel('Password', { exact: true }).waitFor();
    await expectAccessible(anon, 'login, password step');

    for (const [path, ready] of [
      ['/signup', 'Full Name'],
      ['/forgot-password', 'Email Address'],
      ['/reset-password?token=abcdefghijklmnopqrstuvwxyz0123456789', 'New Password'],
    ] as const) {
      await anon.goto(`${app.url}${path}`);
      await anon.getByLabel(ready, { exact: true }).waitFor();
      await expectAccessible(anon, path);
    }
    await anon.goto(`${app.url}/reset-password`);
    await anon.getByRole('alert').first().waitFor();
    await expectAccessible(anon, '/reset-password without a token');

    await anon.goto(`${app.url}/docs`);
    const tabs = anon.getByRole('tab');
    await tabs.first().waitFor();
    for (const name of await tabs.allTextContents()) {
      await anon.getByRole('tab', { name }).click();
      await anon.getByRole('tabpanel').waitFor();
      await expectAccessible(anon, `/docs, ${name} tab`);
    }

    await anon.goto(`${app.url}/model-card`);
    await anon.getByRole('heading', { level: 1, name: /^Model card/ }).waitFor();
    await expectAccessible(anon, '/model-card');
    await anon.context().close();
  });

  test('profiles: the list, the profile form, the timeline and the delete dialog', async () => {
    await page.goto(`${app.url}/chat`);
    await page.getByRole('heading', { name: 'Welcome to Chest Doctor AI' }).waitFor();
    await expectAccessible(page, '/chat without a chat (welcome)');

    await page.goto(`${app.url}/chat/profiles`);
    await page.getByRole('button', { name: `Edit ${patientName}` }).waitFor();
    await expectAccessible(page, '/chat/profiles with a profile');

    await page.locator('.page-header').getByRole('button', { name: 'Create Profile' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Profile' });
    await create.waitFor();
    await expectAccessible(page, 'profile form dialog (create)');
    await create.getByRole('button', { name: 'Create Profile' }).click();
    await create.getByRole('alert').first().waitFor();
    await expectAccessible(page, 'profile form dialog with validation errors');
    await create.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: `Edit ${patientName}` }).click();
    await page.getByRole('dialog', { name: 'Edit Profile' }).waitFor();
    await expectAccessible(page, 'profile form dialog (edit)');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Timeline of ${patientName}` }).click();
    await page.getByRole('dialog', { name: `Timeline: ${patientName}` }).waitFor();
    await expectAccessible(page, 'timeline dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: `Delete ${patientName}` }).click();
    await page.getByRole('dialog', { name: 'Delete Profile?' }).waitFor();
    await expectAccessible(page, 'delete profile dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  test('chat: the profile picker, the form, progress, and the analysed film with the heatmap', async () => {
    await page.goto(`${app.url}/chat`);
    await page.getByRole('button', { name: 'New Chat' }).first().click();
    const picker = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
    await picker.waitFor();
    await expectAccessible(page, 'new chat profile picker dialog');
    await picker.getByRole('button', { name: 'New patient' }).click();
    await page.getByRole('dialog', { name: 'Create New Profile' }).waitFor();
    await expectAccessible(page, 'new chat, the new patient form');
    await page.keyboard.press('Escape');
    await picker.waitFor();
    await picker.getByRole('button', { name: new RegExp(patientName.slice(-8)) }).click();
    await page.getByRole('heading', { name: 'Start Your Analysis' }).waitFor();
    await expectAccessible(page, 'chat form (empty upload)');

    await page
      .locator('.chat-upload input[type=file]')
      .setInputFiles({ name: 'chest.jpg', mimeType: 'image/jpeg', buffer: FILM });
    await expectToast(page, 'Image uploaded successfully');
    await expectAccessible(page, 'chat form with a film and a toast');
    // The stream is held back a moment so that the progress panel can be checked while it shows.
    const stream = '**/trpc/analysis.onProgress**';
    await page.route(stream, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      // The page may have moved on (unroute, a reconnect) while this request waited: then
      // Playwright has already settled the route and there is nothing left to release.
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('button', { name: 'Submit Analysis' }).click();
    await page.getByRole('region', { name: 'Analysis progress' }).locator('.chat-progress-step.is-active').waitFor();
    await expectAccessible(page, 'analysis progress');
    await page.unroute(stream);
    await page.waitForURL(/\/chat\?chat=[0-9a-f-]{36}$/, { timeout: 120_000 });
    await page.locator('.chat-msg.is-assistant').first().waitFor();
    await expectAccessible(page, 'analysed chat');
    const overlay = page.getByLabel('Heatmap overlay');
    if (!(await overlay.isChecked())) await overlay.check();
    await page.locator('.heatmap-legend').waitFor();
    await expectAccessible(page, 'analysed chat with the heatmap and its legend');
  });

  // After the chat test: the Site tab's monitoring charts then have a week with an analysis.
  test('settings: each tab, the delete-account dialog', async () => {
    await page.goto(`${app.url}/chat/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    const names = await page.getByRole('tab').allTextContents();
    assert.deepEqual(names, ['Profile', 'Password', 'Danger Zone', 'Site']);
    for (const name of names) {
      await page.getByRole('tab', { name }).click();
      await page.getByRole('tabpanel').waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, `settings, ${name} tab`);
    }
    // Issue 49 item 7: Send test to the RIS from the Site tab; the last result shows in words.
    await page.getByRole('tab', { name: 'Site' }).click();
    await page.getByRole('button', { name: 'Send test to the RIS (HL7 v2 over MLLP)' }).click();
    const last = page.getByTestId('last-test-hl7');
    await last.waitFor();
    assert.match((await last.textContent()) ?? '', /^Last test passed: Accepted: the RIS answered ACK AA \(/);
    const oru = Hl7Message.parse(ris.received[0]!);
    assert.equal(oru.getSegment('PID')?.getField(3)?.getComponent(1), 'CXRAI-TEST-0000');
    assert.equal(await page.getByRole('button', { name: 'Send test to the PACS (DICOM)' }).isDisabled(), true);
    await expectAccessible(page, 'settings, Site tab, the RIS tested');

    await page.getByRole('tab', { name: 'Danger Zone' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'delete account dialog');
    await page.keyboard.press('Escape');

    // Where the mailed site-admin link lands, either way (issue 41 part 6).
    for (const outcome of ['confirmed', 'invalid'] as const) {
      await page.goto(`${app.url}/chat/settings?site-admin=${outcome}`);
      await page.getByTestId('site-admin-link-notice').waitFor();
      await expectAccessible(page, `settings, the site-admin link ${outcome}`);
    }
    await page.goto(`${app.url}/chat/settings/sso-preview`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('region', { name: 'What this sign-in would do' }).waitFor();
    await expectAccessible(page, 'the SSO mapping preview with its answer');
  });

  test("a team's worklist: the issue 41 columns, Claim, and the skip link shown", async () => {
    const team = await trpcMutation<{ id: string }>(app.url, token, 'team.create', { name: 'Axe team' });
    const { key } = await trpcMutation<{ key: string }>(app.url, token, 'apiKey.create', {
      name: 'PACS',
      team_id: team.id,
    });
    const body = related([(await buildDxInstance({ patientId: 'AXE-1', patientName: 'AXE^CASE' })).bytes]);
    const stowed = await fetch(`${app.url}/dicomweb/studies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, ...body.headers },
      body: body.payload,
    });
    assert.equal(stowed.status, 200);
    await page.goto(`${app.url}/chat/worklist`);
    await page.locator('#space-select').selectOption(team.id);
    await page.getByRole('heading', { name: 'Worklist — Axe team' }).waitFor();
    await page.getByRole('button', { name: 'Claim' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Claim' }).waitFor();
    await page.keyboard.press('Tab');
    await page.getByRole('link', { name: 'Skip to worklist' }).waitFor();
    await expectAccessible(page, "/chat/worklist, a team's rows, the skip link focused");
    // Issue 49: the reading viewer, then the signed row (its text faded to 3.99:1 before).
    await page.locator('[data-testid="worklist-row"]').first().getByRole('button').first().click();
    const report = page.getByTestId('report-panel');
    await report.getByLabel('Impression').waitFor({ timeout: 120_000 });
    await expectAccessible(page, 'the reading viewer: the film and the draft report side by side');
    await report.getByRole('button', { name: 'Sign', exact: true }).click();
    await expectToast(page, 'Report signed');
    await report.getByTestId('report-signed').waitFor();
    await expectAccessible(page, 'the reading viewer, signed');
    await page.goto(`${app.url}/chat/worklist`);
    await page.getByLabel('Show signed and reviewed').check();
    await page.locator('.worklist-row.is-done').first().waitFor();
    await expectAccessible(page, '/chat/worklist with a signed row');
    await page.goto(`${app.url}/chat/teams`);
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.locator('[data-testid="team-audit-entry"]').first().waitFor();
    await expectAccessible(page, 'the team page with its audit trail');
    await page.locator('#space-select').selectOption({ index: 0 });
  });

  test('Swagger UI at /api/docs: its violations, reported apart', async () => {
    const docs = await (await browser.newContext({ bypassCSP: true })).newPage();
    await docs.goto(`${app.url}/api/docs`);
    await docs.locator('.swagger-ui .info').waitFor();
    const violations = await axeViolations(docs);
    console.log(
      `axe, /api/docs (Swagger UI, third-party):\n${violations.map(describeViolation).join('\n') || '    none'}`,
    );
    // The page's frame (language, title) is the app's: those rules must pass.
    const ours = violations.filter((v) => ['html-has-lang', 'html-lang-valid', 'document-title'].includes(v.id));
    assert.deepEqual(ours.map(describeViolation), []);
    await docs.context().close();
  });
});
