import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { apiKeysRevokedText } from '@contracts/schemas/api-key.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, randomIp, rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { resetTokenIn, startInbox } from '../auth/smtp-inbox.js';

/**
 * Issue 23 N5: sessions ended on a password change or reset, API keys kept working, so a key
 * minted during an account takeover survived the reset meant to lock the intruder out.
 */
describe('API keys die with the password (issue 23 N5)', () => {
  let t: TestApp;
  let inbox: Awaited<ReturnType<typeof startInbox>>;
  beforeAll(async () => {
    inbox = await startInbox();
    t = await createTestApp({
      env: { ...FAST_HASH_ENV, SMTP_URL: inbox.url, SMTP_FROM: 'CXR <cxr@hospital.example>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  const mintKey = async (token: string) => {
    const res = await rest(t.app, 'POST', '/api/api-keys', { name: 'intruder' }, { bearer: token });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return String((res.body.data as { key: string }).key);
  };
  const keyWorks = async (key: string) => (await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: key })).status;

  test('a password change revokes every key and says so', async () => {
    const u = await signUpUser(t.app);
    const keys = [await mintKey(u.token), await mintKey(u.token)];
    for (const key of keys) assert.equal(await keyWorks(key), 200);
    const res = await trpc(
      t.app,
      'mutation',
      'settings.changePassword',
      { current_password: u.password, new_password: 'another passphrase', confirm_password: 'another passphrase' },
      { bearer: u.token },
    );
    assert.equal(res.status, 200, JSON.stringify(res.error));
    assert.equal(res.data?.apiKeysRevoked, 2);
    for (const key of keys) assert.equal(await keyWorks(key), 401, 'the key stopped working');
    assert.equal(await keyWorks(u.token), 200, 'the session that changed it stays');
    const list = await rest(t.app, 'GET', '/api/api-keys', undefined, { bearer: u.token });
    assert.deepEqual((list.body.data as { keys: unknown[] }).keys, []);
  });

  test('a password reset revokes every key and its message says so', async () => {
    const u = await signUpUser(t.app);
    const key = await mintKey(u.token);
    assert.equal(
      (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip: randomIp() })).status,
      200,
    );
    const { token } = resetTokenIn((await inbox.next()).text);
    const res = await rest(t.app, 'POST', '/api/auth/reset-password', { token, password: 'a reset passphrase' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.message, `${AUTH_MESSAGES.resetDone} ${apiKeysRevokedText(1)}`);
    assert.equal(await keyWorks(key), 401);
  });
});
