import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, users } from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import {
  assertPasswordReplaced,
  FAST_HASH_ENV,
  logIn,
  PASSWORD,
  randomIp,
  rest,
  signUpUser,
  trpc,
} from '../auth/auth-helpers.js';

const NEW_PASSWORD = 'another fine passphrase';

type TSettingsCall = ['PUT' | 'POST', string, unknown];
/** The settings calls that need a password session (an API key may not make them). */
const PASSWORD_SESSION_CALLS: TSettingsCall[] = [
  [
    'PUT',
    '/api/settings/change-password',
    { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
  ],
  ['POST', '/api/settings/clear-chats', { confirm_clear: true }],
  ['POST', '/api/settings/clear-profiles', { confirm_clear: true }],
  ['POST', '/api/settings/delete-account', { confirm_delete: true, password: PASSWORD }],
];

for (const backend of testBackends()) {
  describe(`settings on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend, env: FAST_HASH_ENV });
    });
    afterAll(async () => {
      await t.close();
    });

    const me = (token: string) => rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: token });

    test('change-name answers the spec message and the user loads with the new name', async () => {
      const u = await signUpUser(t.app);
      const r = await rest(t.app, 'PUT', '/api/settings/change-name', { name: '  Dr Renamed  ' }, { cookie: u.token });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        success: true,
        message: 'Name updated successfully!',
        user: { id: u.id, name: 'Dr Renamed', email: u.email },
      });
      assert.deepEqual((await me(u.token)).body.user, { id: u.id, name: 'Dr Renamed', email: u.email });
      const short = await rest(t.app, 'PUT', '/api/settings/change-name', { name: ' ab ' }, { bearer: u.token });
      assert.deepEqual([short.status, short.body.message], [400, 'Name must be at least 3 characters']);
      const viaTrpc = await trpc(
        t.app,
        'mutation',
        'settings.changeName',
        { name: 'Dr Trpc Name' },
        { bearer: u.token },
      );
      assert.equal(viaTrpc.data?.message, 'Name updated successfully!');
    });

    test('change-password: spec messages, the new password works, other sessions end and this one stays', async () => {
      const u = await signUpUser(t.app);
      const elsewhere = await logIn(t.app, u.email, PASSWORD);
      const cases: [unknown, string][] = [
        [
          { current_password: PASSWORD, new_password: 'short', confirm_password: 'short' },
          'Password must be at least 8 characters',
        ],
        [
          { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: 'something else' },
          'Passwords do not match',
        ],
      ];
      for (const [body, message] of cases) {
        const r = await rest(t.app, 'PUT', '/api/settings/change-password', body, { bearer: u.token });
        assert.deepEqual([r.status, r.body.message], [400, message]);
      }
      const r = await rest(
        t.app,
        'PUT',
        '/api/settings/change-password',
        { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
        { cookie: u.token },
      );
      assert.deepEqual([r.status, r.body], [200, { success: true, message: 'Password updated successfully!' }]);
      assert.equal((await me(u.token)).status, 200, 'the session that changed it stays');
      assert.equal((await me(String(elsewhere.body.token))).status, 401, 'other sessions end');
      await assertPasswordReplaced(t.app, u.email, { old: PASSWORD, now: NEW_PASSWORD });
    });

    test('req 6: a wrong current password answers 403 WRONG_PASSWORD and does not log the user out', async () => {
      const u = await signUpUser(t.app);
      const body = { current_password: 'not my password', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };
      const r = await rest(t.app, 'PUT', '/api/settings/change-password', body, { cookie: u.token });
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { success: false, message: 'Current password is incorrect', code: 'WRONG_PASSWORD' });
      assert.equal((await me(u.token)).status, 200);
      const viaTrpc = await trpc(t.app, 'mutation', 'settings.changePassword', body, { bearer: u.token });
      assert.equal(viaTrpc.status, 403);
      assert.equal(viaTrpc.error?.message, 'Current password is incorrect');
      assert.equal(viaTrpc.error?.data.appCode, 'WRONG_PASSWORD');
      assert.equal((await me(u.token)).status, 200);
    });

    test('req 6: a wrong password on delete-account answers 403 and keeps the account and the session', async () => {
      const u = await signUpUser(t.app);
      const r = await rest(
        t.app,
        'POST',
        '/api/settings/delete-account',
        { confirm_delete: true, password: 'not my password' },
        { cookie: u.token },
      );
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { success: false, message: 'Incorrect password', code: 'WRONG_PASSWORD' });
      const viaTrpc = await trpc(
        t.app,
        'mutation',
        'settings.deleteAccount',
        { confirm_delete: true, password: 'not my password' },
        { bearer: u.token },
      );
      assert.deepEqual(
        [viaTrpc.status, viaTrpc.error?.message, viaTrpc.error?.data.appCode],
        [403, 'Incorrect password', 'WRONG_PASSWORD'],
      );
      assert.equal((await me(u.token)).status, 200);
      assert.equal((await t.deps.db.select().from(users).where(eq(users.id, u.id))).length, 1);
      const empty = await rest(
        t.app,
        'POST',
        '/api/settings/delete-account',
        { confirm_delete: true, password: '' },
        { bearer: u.token },
      );
      assert.deepEqual([empty.status, empty.body.message], [400, 'Password is required']);
    });

    test('req 4: wrong passwords in settings count toward the account lockout', async () => {
      const u = await signUpUser(t.app);
      const body = { current_password: 'not my password', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };
      for (let i = 0; i < 10; i++) {
        assert.equal(
          (await rest(t.app, 'PUT', '/api/settings/change-password', body, { bearer: u.token, ip: randomIp() })).status,
          403,
        );
      }
      const right = { ...body, current_password: PASSWORD };
      assert.equal(
        (await rest(t.app, 'PUT', '/api/settings/change-password', right, { bearer: u.token, ip: randomIp() })).status,
        429,
      );
      assert.equal((await logIn(t.app, u.email, PASSWORD)).status, 429);
      assert.equal((await me(u.token)).status, 200, 'still signed in');
    });

    test('a personal API key cannot change the password, wipe data or delete the account', async () => {
      const u = await signUpUser(t.app);
      const key = `cxr_${'k'.repeat(40)}`;
      await t.deps.db
        .insert(apiKeys)
        .values({ userId: u.id, name: 'batch', prefix: key.slice(0, 8), keyHash: hashToken(key) });
      assert.equal((await me(key)).status, 200);
      for (const [method, url, body] of PASSWORD_SESSION_CALLS) {
        const r = await rest(t.app, method, url, body, { bearer: key });
        assert.deepEqual([r.status, r.body.code], [403, 'FORBIDDEN'], url);
      }
      assert.equal((await t.deps.db.select().from(users).where(eq(users.id, u.id))).length, 1);
    });

    test('every settings call except logout requires authentication', async () => {
      const calls: TSettingsCall[] = [
        ['PUT', '/api/settings/change-name', { name: 'Dr Nobody' }],
        ...PASSWORD_SESSION_CALLS,
      ];
      for (const [method, url, body] of calls) {
        const r = await rest(t.app, method, url, body, { bearer: 'not-a-session-token' });
        assert.deepEqual([r.status, r.body.success], [401, false], url);
      }
      for (const path of ['changeName', 'changePassword', 'clearChats', 'clearProfiles', 'deleteAccount']) {
        assert.equal((await trpc(t.app, 'mutation', `settings.${path}`, {})).status, 401, path);
      }
    });
  });
}
