import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { CXR_FIXTURE } from '../helpers/fault-procs.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { TEST_PATIENT_MARKER } from '../helpers/test-patients.js';

/**
 * XSS payloads stored through every text field a user controls (patient names, custom field keys
 * and values, chat titles set at upload and by renaming) must show as text on every page that
 * renders them, never run. tests/e2e/analysis-chat covers the chat view's messages.
 */
const PAYLOADS = [
  `${TEST_PATIENT_MARKER} <img src=x onerror="window.__xss='img'">`,
  `${TEST_PATIENT_MARKER} <script>window.__xss='script'</script>`,
  `${TEST_PATIENT_MARKER} <svg onload="window.__xss='svg'"></svg>`,
  `${TEST_PATIENT_MARKER} "><iframe srcdoc="<script>parent.__xss='iframe'</script>">`,
  `${TEST_PATIENT_MARKER} [x](javascript:window.__xss='md') **bold**`,
];

/** Anything in the DOM that could run script: event-handler attributes, javascript: links, injected frames or scripts. */
async function scriptableNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) bad.push(`${el.tagName} ${a.name}`);
        if (/^\s*javascript:/i.test(a.value)) bad.push(`${el.tagName} ${a.name}=${a.value}`);
      }
      if (el.tagName === 'IFRAME' || (el.tagName === 'SCRIPT' && (el.textContent ?? '').includes('__xss')))
        bad.push(el.tagName);
    }
    return bad;
  });
}

describe('stored XSS never executes in the browser', () => {
  let app: E2eApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const chatIds: string[] = [];

  beforeAll(async () => {
    app = await startE2eApp(
      { RATE_LIMIT_DISABLED: 'true', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' },
      { worker: false },
    );
    browser = await launchBrowser();
    context = await browser.newContext();
    const signup = await context.request.post(`${app.url}/api/auth/signup`, {
      data: { name: PAYLOADS[0], email: `xss-${uniqueSuffix()}@example.test`, password: 'correct horse battery' },
    });
    assert.equal(signup.status(), 200, await signup.text());
    const image = readFileSync(CXR_FIXTURE);
    for (const [i, payload] of PAYLOADS.entries()) {
      const profile = await context.request.post(`${app.url}/api/profile/create`, {
        data: { profile: { full_name: payload.slice(0, 190), age: '40', [`k${i} <b onmouseover=alert(1)>`]: payload } },
      });
      assert.equal(profile.status(), 201, await profile.text());
      const up = await context.request.post(`${app.url}/api/chat/upload`, {
        multipart: {
          profile: JSON.stringify({ full_name: payload.slice(0, 190), age: '40', medical_history: payload }),
          image: { name: 'x.jpg', mimeType: 'image/jpeg', buffer: image },
        },
      });
      assert.equal(up.status(), 202, await up.text());
      chatIds.push(((await up.json()) as { data: { chat_id: string } }).data.chat_id);
    }
    const renamed = await context.request.put(`${app.url}/api/history/edit-title`, {
      data: { chat_id: chatIds[0], title: PAYLOADS[2] },
    });
    assert.equal(renamed.status(), 200, await renamed.text());
    page = await context.newPage();
    await page.addInitScript(() => {
      window.alert = () => undefined;
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  for (const [name, path] of [
    ['chat history sidebar', '/chat'],
    ['a chat whose title and patient are payloads', '/chat?chat=CHAT0'],
    ['another chat', '/chat?chat=CHAT1'],
    ['patient profiles page', '/chat/profiles'],
    ['settings page (user name is a payload)', '/chat/settings'],
  ] as const) {
    test(`${name}: payloads render as text and nothing runs`, async () => {
      await page.goto(`${app.url}${path.replace('CHAT0', chatIds[0] ?? '').replace('CHAT1', chatIds[1] ?? '')}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      assert.equal(
        await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
        undefined,
        'no payload ran',
      );
      assert.deepEqual(dialogs, [], 'no dialog opened');
      assert.deepEqual(await scriptableNodes(page), [], 'no scriptable node in the DOM');
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(text.includes(TEST_PATIENT_MARKER), 'the payload text is on the page, as text');
      await screenshot(page, `xss-${name.split(' ')[0]}-${name.split(' ')[1] ?? ''}`);
    });
  }
});
