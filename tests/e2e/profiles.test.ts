import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { PROFILE_MESSAGES } from '@contracts/schemas/profile.js';
import { screenshot } from '../helpers/browser.js';
import {
  expectAlert,
  expectToast,
  openSignedInPage,
  startClientApp,
  waitForPath,
  type TClientApp,
} from './support/client-ui.js';

const FILM = readFileSync(
  new URL('../fixtures/cxr/pneumonia-bacterial-kermany-person876-bacteria-2799.jpg', import.meta.url),
);

describe('web client: patient profiles', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ctx = await startClientApp();
    ({ page, errors } = await openSignedInPage(ctx));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  test('the empty state, then every validation message of the profile form', async () => {
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.getByRole('heading', { name: 'Patient Profiles' }).waitFor();
    await page.getByRole('heading', { name: 'No Profiles Yet' }).waitFor();
    await screenshot(page, 'profiles-empty');
    await page.getByRole('button', { name: 'Create Your First Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Profile' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Create Profile' });
    await dialog.getByLabel('Patient Name *').fill('Al');
    await submit.click();
    await expectAlert(page, 'Patient name must be at least 3 characters');
    await dialog.getByLabel('Patient Name *').fill('Maria Lopez');
    await submit.click();
    await expectAlert(page, 'Please enter a valid age');
    await dialog.getByLabel('Age *').fill('151');
    await submit.click();
    await expectAlert(page, 'Please enter a valid age');
    await dialog.getByLabel('Age *').fill('42');
    await dialog.getByRole('button', { name: '+ Add Field' }).click();
    await dialog.getByLabel('Field name 1').fill('Allergies');
    await submit.click();
    await expectAlert(page, 'Please fill in all additional fields or remove empty ones');
    await dialog.getByLabel('Field description 1').fill('Penicillin');
    await dialog.getByRole('button', { name: '+ Add Field' }).click();
    await dialog.getByLabel('Field name 2').fill('Blank row');
    await dialog.getByRole('button', { name: 'Remove field 2' }).click();
    await screenshot(page, 'profile-modal');
    await submit.click();
    await expectToast(page, 'Profile created successfully');
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByRole('listitem').filter({ hasText: 'Maria Lopez' });
    await card.waitFor();
    assert.ok(await card.getByText('Age: 42 years old').isVisible());
    assert.ok(await card.getByText('1 additional field').isVisible());
    assert.equal((await card.locator('.avatar').textContent())?.trim(), 'M');
  });

  test('edit opens prefilled and updates the profile', async () => {
    await page.getByRole('button', { name: 'Edit Maria Lopez' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Patient Name *').inputValue(), 'Maria Lopez');
    assert.equal(await dialog.getByLabel('Age *').inputValue(), '42');
    assert.equal(await dialog.getByLabel('Field name 1').inputValue(), 'Allergies');
    assert.equal(await dialog.getByLabel('Field description 1').inputValue(), 'Penicillin');
    await dialog.getByLabel('Age *').fill('43');
    await dialog.getByRole('button', { name: '+ Add Field' }).click();
    await dialog.getByLabel('Field name 2').fill('Smoker');
    await dialog.getByLabel('Field description 2').fill('No');
    await dialog.getByRole('button', { name: 'Update Profile' }).click();
    await expectToast(page, 'Profile updated successfully');
    const card = page.getByRole('listitem').filter({ hasText: 'Maria Lopez' });
    await card.getByText('Age: 43 years old').waitFor();
    assert.ok(await card.getByText('2 additional fields').isVisible());
    await page.getByRole('button', { name: 'Create Profile' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Profile' });
    await create.getByLabel('Patient Name *').fill('John Okafor');
    await create.getByLabel('Age *').fill('0');
    await create.getByRole('button', { name: 'Create Profile' }).click();
    await expectToast(page, 'Profile created successfully');
    await page.getByText('Age: 0 years old').waitFor();
    await screenshot(page, 'profiles-grid');
  });

  test('New Chat lists the profiles and picking one opens /chat with that profile', async () => {
    // A fresh load (nothing cached) with the list slowed down, to see the loading state.
    await page.goto(`${ctx.app.url}/chat`);
    await page.getByRole('button', { name: 'New Chat' }).waitFor();
    await page.route('**/trpc/*profile.list*', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page.getByRole('button', { name: 'New Chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
    await dialog.getByText('Loading profiles...').waitFor();
    await dialog.getByText('Age: 43').waitFor();
    await page.unroute('**/trpc/*profile.list*');
    await screenshot(page, 'new-chat-modal');
    await dialog.getByRole('button', { name: /Maria Lopez/ }).click();
    await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.get('new') === '1');
    const state = (await page.evaluate(() => history.state as { profile?: { patientName: string } } | null)) ?? {};
    // Part B may clear the state once the form is prefilled; then the form shows the name instead.
    if (state.profile) assert.equal(state.profile.patientName, 'Maria Lopez');
    else await page.getByText('Maria Lopez').first().waitFor();
  });

  test('delete asks for confirmation, then removes the profile', async () => {
    await page.goto(`${ctx.app.url}/chat/profiles`);
    await page.getByRole('button', { name: 'Delete John Okafor' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Profile?' });
    await confirm.waitFor();
    await screenshot(page, 'profile-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete John Okafor' }).click();
    await page.getByRole('dialog', { name: 'Delete Profile?' }).getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Profile deleted successfully');
    await page.getByRole('listitem').filter({ hasText: 'John Okafor' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete Maria Lopez' }).click();
    await page.getByRole('dialog', { name: 'Delete Profile?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'No Profiles Yet' }).waitFor();
  });

  test("with no profiles, New Chat offers 'Create Profile', which opens the form", async () => {
    await page.getByRole('button', { name: 'New Chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
    await dialog.getByText('No profiles found').waitFor();
    await dialog.getByRole('button', { name: 'Create Profile' }).click();
    await waitForPath(page, '/chat/profiles');
    await page.getByRole('dialog', { name: 'Create New Profile' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Create New Profile' }).waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  test('New Chat → New patient: the profile form with its validation, then the analysis form for that patient', async () => {
    await page.goto(`${ctx.app.url}/chat`);
    await page.getByRole('button', { name: 'New Chat' }).click();
    const picker = page.getByRole('dialog', { name: 'Select Profile for New Chat' });
    // After the delete test: no profile yet, the case of a clinician's first patient.
    await picker.getByText('No profiles found').waitFor();
    await picker.getByRole('button', { name: 'New patient' }).click();
    const form = page.getByRole('dialog', { name: 'Create New Profile' });
    await form.waitFor();
    assert.equal(await picker.count(), 0, 'the form replaces the picker');
    const submit = form.getByRole('button', { name: 'Create Profile' });
    await submit.click();
    await expectAlert(page, PROFILE_MESSAGES.name);
    await form.getByLabel('Patient Name *').fill('Amara Nwosu');
    await form.getByLabel('Age *').fill('151');
    await submit.click();
    await expectAlert(page, PROFILE_MESSAGES.age);
    await form.getByLabel('Age *').fill('67');
    await form.getByRole('button', { name: '+ Add Field' }).click();
    await form.getByLabel('Field name 1').fill('Symptoms');
    await submit.click();
    await expectAlert(page, PROFILE_MESSAGES.fields);
    await form.getByLabel('Field description 1').fill('Cough for three weeks');
    await screenshot(page, 'new-chat-new-patient');
    await submit.click();
    await expectToast(page, 'Profile created successfully');
    await form.waitFor({ state: 'detached' });

    // On into the analysis form for that patient: upload the film there.
    await page.waitForURL((u) => u.pathname === '/chat' && u.searchParams.get('new') === '1');
    await page.getByRole('heading', { name: 'Start Your Analysis' }).waitFor();
    await page.locator('.chat-badge').filter({ hasText: 'Amara Nwosu' }).waitFor();
    await page
      .locator('.chat-upload input[type=file]')
      .setInputFiles({ name: 'chest.jpg', mimeType: 'image/jpeg', buffer: FILM });
    await expectToast(page, 'Image uploaded successfully');
    const input = encodeURIComponent(JSON.stringify({ limit: 200 }));
    type TListed = { result: { data: { items: { patientName: string; age: number; additionalInfo: object }[] } } };
    const listed = await page.evaluate(async (q) => (await fetch(`/trpc/profile.list?input=${q}`)).json(), input);
    const made = (listed as TListed).result.data.items.find((p) => p.patientName === 'Amara Nwosu');
    assert.deepEqual(made && { age: made.age, info: made.additionalInfo }, {
      age: 67,
      info: { Symptoms: 'Cough for three weeks' },
    });
    // Escape on the form goes back to the picker, not out of New Chat.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await picker.getByRole('button', { name: 'New patient' }).click();
    await form.waitFor();
    await page.keyboard.press('Escape');
    await picker.getByText('Amara Nwosu').waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });
});
