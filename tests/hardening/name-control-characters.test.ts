import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { patientProfiles, users } from '../../server/src/db/schema.js';
import { AUTH_MESSAGES, ZAccountName } from '@contracts/schemas/auth.js';
import { ANALYSIS_MESSAGES, ZAnalysisPatient } from '@contracts/schemas/analysis.js';
import { PROFILE_MESSAGES, ZProfileInput } from '@contracts/schemas/profile.js';
import { SETTINGS_MESSAGES, ZChangeNameInput } from '@contracts/schemas/settings.js';
import { hasVisibleText } from '@contracts/schemas/text-rules.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends, uniqueSuffix } from '../helpers/test-config.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';

/**
 * Issue 46 H3 (the entry side; escaping inside HL7 and the SR is the transport's) and I1: a
 * display name, a patient's name and a profile's fields refuse C0 control characters and DEL
 * when they are entered, with a message that says so; an impression needs a visible character.
 */
const CONTROLS = ['\u0000', '\u0009', '\u000a', '\u000b', '\u000d', '\u001c', '\u001f', '\u007f'];
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('names refuse control characters (the shared schemas)', () => {
  test('every C0 control and DEL, inside or at either end, is refused with the field’s message', () => {
    for (const c of CONTROLS)
      for (const name of [`Dr ${c}Ada`, `Dr Ada${c}`, `${c}Dr Ada`]) {
        const label = JSON.stringify(name);
        assert.equal(firstMessage(ZAccountName.safeParse(name)), AUTH_MESSAGES.nameControl, label);
        assert.equal(firstMessage(ZChangeNameInput.safeParse({ name })), SETTINGS_MESSAGES.nameControl, label);
        const profile = ZProfileInput.safeParse({ patientName: name, age: 40 });
        assert.equal(firstMessage(profile), PROFILE_MESSAGES.nameControl, label);
        const field = ZProfileInput.safeParse({
          patientName: 'Ann Lee',
          age: 40,
          additionalFields: [{ key: 'Allergies', value: `penicillin${c}` }],
        });
        assert.equal(firstMessage(field), PROFILE_MESSAGES.fieldControl, label);
        assert.equal(
          firstMessage(ZAnalysisPatient.safeParse({ full_name: name })),
          ANALYSIS_MESSAGES.nameControl,
          label,
        );
      }
    // Names from every script, accents and apostrophes stay welcome.
    for (const name of ['José Álvarez-O’Neil', '李小龍', 'Zoë Ødegaard', 'Ахматова Анна'])
      assert.ok(ZAccountName.safeParse(name).success && ZProfileInput.safeParse({ patientName: name, age: 1 }).success);
  });

  test('an impression needs a visible character: zero-width and format characters alone are empty', () => {
    for (const empty of ['', ' ', '\u200b', '\u200c\u200d', '\ufeff', '\u2060', '\u00ad', ' \u200b\n\t'])
      assert.equal(hasVisibleText(empty), false, JSON.stringify(empty));
    for (const seen of ['1.', 'a\u200b', '肺', '—']) assert.equal(hasVisibleText(seen), true, seen);
  });
});

for (const backend of testBackends()) {
  describe(`names with control characters are refused at entry on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...TEST_ENV } });
      u = await createUser(t.deps, { name: 'Dr Plain' });
    });
    afterAll(async () => {
      await t?.close();
    });

    test('sign-up, a name change and a patient profile: 400 with the message, nothing stored', async () => {
      const email = `fs-${uniqueSuffix()}@example.com`;
      const signup = await rest(t.app, 'POST', '/api/auth/signup', null, {
        name: 'Dr Ada\u001c',
        email,
        password: 'correct horse battery staple',
      });
      assert.equal(signup.status, 400);
      assert.equal((signup.body as { message: string }).message, AUTH_MESSAGES.nameControl);
      assert.deepEqual(await t.deps.db.select().from(users).where(eq(users.email, email)), []);

      const renamed = await rest(t.app, 'PUT', '/api/settings/change-name', u.token, { name: 'Dr\u000bPlain' });
      assert.equal(renamed.status, 400);
      assert.equal((renamed.body as { message: string }).message, SETTINGS_MESSAGES.nameControl);
      const [me] = await t.deps.db.select({ name: users.name }).from(users).where(eq(users.id, u.user.id));
      assert.equal(me?.name, 'Dr Plain');

      const created = await trpc(t.app, 'mutation', 'profile.create', u.token, {
        patientName: 'Reed\u001cAlice',
        age: 40,
      });
      assert.equal(created.status, 400);
      assert.equal(created.error?.message, PROFILE_MESSAGES.nameControl);
      const stored = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.userId, u.user.id));
      assert.deepEqual(stored, []);
    });
  });
}
