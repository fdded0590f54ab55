import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { passwordResetTokens, sessions } from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { purgeExpiredAuth } from '../../server/src/services/auth/purge-expired-auth.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, rest, signUpUser, trpc, uniqueEmail } from './auth-helpers.js';

const HOUR = 3600_000;

function cookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const c = all.find((s) => s.startsWith('token='));
  assert.ok(c, 'a token cookie is set');
  return c;
}

for (const backend of testBackends()) {
  describe(`sessions on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...FAST_HASH_ENV, SESSION_IDLE_HOURS: '12' } });
    });
    afterAll(async () => {
      await t.close();
    });

    // First in the file: purging is table-wide, so its exact counts need the app's sessions and
    // reset links to be only its own (the rows the later tests leave would be purged too).
    describe('purging dead sessions', () => {
      test('revoked, expired and idle sessions and used or expired reset links are deleted; live ones stay', async () => {
        const live = await signUpUser(t.app);
        const loggedOut = await signUpUser(t.app);
        const idle = await signUpUser(t.app);
        await rest(t.app, 'POST', '/api/settings/logout', {}, { bearer: loggedOut.token });
        await t.deps.db
          .update(sessions)
          .set({ lastUsedAt: new Date(Date.now() - 13 * HOUR) })
          .where(eq(sessions.userId, idle.id));
        await t.deps.db.insert(passwordResetTokens).values([
          { userId: live.id, tokenHash: hashToken('live-link'), expiresAt: new Date(Date.now() + HOUR) },
          { userId: live.id, tokenHash: hashToken('old-link'), expiresAt: new Date(Date.now() - 1000) },
          {
            userId: live.id,
            tokenHash: hashToken('used-link'),
            expiresAt: new Date(Date.now() + HOUR),
            usedAt: new Date(),
          },
        ]);
        assert.deepEqual(await purgeExpiredAuth({ db: t.deps.db, idleHours: 12 }), { sessions: 2, resetTokens: 2 });
        const left = await t.deps.db.select({ userId: sessions.userId }).from(sessions);
        assert.deepEqual(
          left.map((s) => s.userId),
          [live.id],
        );
        const links = await t.deps.db.select({ hash: passwordResetTokens.tokenHash }).from(passwordResetTokens);
        assert.deepEqual(
          links.map((l) => l.hash),
          [hashToken('live-link')],
        );
        assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: live.token })).status, 200);
      });
    });

    test('signup answers the spec shape and message and signs the user in', async () => {
      const email = uniqueEmail();
      const r = await rest(t.app, 'POST', '/api/auth/signup', {
        name: '  Dr Ada  ',
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      assert.equal(r.body.message, 'Account created successfully!');
      const user = r.body.user as Record<string, unknown>;
      assert.deepEqual(Object.keys(user).sort(), ['email', 'id', 'name']);
      assert.equal(user.name, 'Dr Ada');
      assert.equal(user.email, email, 'stored lower-cased');
      const me = await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: String(r.body.token) });
      assert.deepEqual(me.body, { success: true, user });
    });

    test('two-step login over REST: check-email, then login with the spec message', async () => {
      const u = await signUpUser(t.app);
      const step1 = await rest(t.app, 'POST', '/api/auth/check-email', { email: u.email });
      assert.equal(step1.status, 200);
      assert.equal(step1.body.success, true);
      const r = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD });
      assert.equal(r.status, 200);
      assert.equal(r.body.message, 'Login successful!');
      assert.deepEqual(r.body.user, { id: u.id, name: 'Dr Test User', email: u.email });
      const bad = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: 'wrong password' });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.body, { success: false, message: 'Invalid email or password', code: 'UNAUTHORIZED' });
    });

    test('the same calls work through tRPC with the same shapes', async () => {
      const email = uniqueEmail();
      const signup = await trpc(t.app, 'mutation', 'auth.signup', { name: 'Dr Trpc', email, password: PASSWORD });
      assert.equal(signup.data?.message, 'Account created successfully!');
      assert.equal((await trpc(t.app, 'mutation', 'auth.checkEmail', { email })).data?.success, true);
      const login = await trpc(t.app, 'mutation', 'auth.login', { email, password: PASSWORD });
      assert.equal(login.data?.message, 'Login successful!');
      const token = String(login.data?.token);
      const me = await trpc(t.app, 'query', 'auth.me', undefined, { bearer: token });
      assert.deepEqual(me.data, { success: true, user: signup.data?.user });
      const out = await trpc(t.app, 'mutation', 'settings.logout', undefined, { bearer: token });
      assert.equal(out.data?.message, 'Logged out successfully');
      assert.equal((await trpc(t.app, 'query', 'auth.me', undefined, { bearer: token })).status, 401);
    });

    test('validation answers the spec messages', async () => {
      const cases: [string, unknown, string][] = [
        [
          '/api/auth/signup',
          { name: ' ab ', email: uniqueEmail(), password: PASSWORD },
          'Name must be at least 3 characters long',
        ],
        [
          '/api/auth/signup',
          { name: 'Dr Ok', email: 'no at sign', password: PASSWORD },
          'Please enter a valid email address',
        ],
        [
          '/api/auth/signup',
          { name: 'Dr Ok', email: uniqueEmail(), password: 'short' },
          'Password must be at least 8 characters long',
        ],
        ['/api/auth/login', { email: 'a b@c.d', password: PASSWORD }, 'Please enter a valid email address'],
        ['/api/auth/login', { email: uniqueEmail(), password: 'short' }, 'Password must be at least 8 characters'],
        ['/api/auth/check-email', { email: 'x@nodot' }, 'Please enter a valid email address'],
        ['/api/auth/reset-password', { password: PASSWORD }, 'Invalid reset link'],
        [
          '/api/auth/reset-password',
          { token: 'abc', password: 'short' },
          'Password must be at least 8 characters long',
        ],
      ];
      for (const [url, body, message] of cases) {
        const r = await rest(t.app, 'POST', url, body);
        assert.equal(r.status, 400, url);
        assert.deepEqual(r.body, { success: false, message, code: 'BAD_REQUEST' }, url);
      }
      const viaTrpc = await trpc(t.app, 'mutation', 'auth.signup', {
        name: 'ab',
        email: uniqueEmail(),
        password: PASSWORD,
      });
      assert.equal(viaTrpc.status, 400);
      assert.equal(viaTrpc.error?.message, 'Name must be at least 3 characters long');
    });

    test('req 2: the token has at least 128 random bits and the database stores only its hash', async () => {
      const u = await signUpUser(t.app);
      assert.ok(Buffer.from(u.token, 'base64url').length >= 16, 'token carries >= 128 bits');
      const rows = await t.deps.db.select().from(sessions).where(eq(sessions.userId, u.id));
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.tokenHash, hashToken(u.token));
      assert.ok(!JSON.stringify(rows).includes(u.token), 'the token itself is nowhere in the row');
    });

    test('req 2: the cookie is HttpOnly, SameSite=Lax, Path=/, 7 days, and not Secure on http', async () => {
      const u = await signUpUser(t.app);
      const r = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD });
      const cookie = cookieOf(r.res.headers['set-cookie']);
      assert.ok(cookie.startsWith(`token=${String(r.body.token)};`), 'the cookie carries the same token as the body');
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, /; Path=\//);
      assert.match(cookie, /; Max-Age=604800/);
      assert.doesNotMatch(cookie, /Secure/);
      const viaCookie = await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: String(r.body.token) });
      assert.equal(viaCookie.status, 200);
      const [row] = await t.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(String(r.body.token))));
      const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
      assert.equal(lifetime, 7 * 24 * HOUR, 'the server-side session lives as long as the cookie');
    });

    test('req 2: every login issues a new token, and a token the client proposes is never adopted', async () => {
      const u = await signUpUser(t.app);
      const planted = 'attacker-chosen-token-value-000000000000000';
      const a = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: u.email, password: PASSWORD },
        { cookie: planted },
      );
      const b = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD });
      assert.notEqual(a.body.token, b.body.token);
      assert.notEqual(a.body.token, u.token);
      assert.notEqual(a.body.token, planted);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: planted })).status, 401);
    });

    test('req 2: logout revokes on the server; the replayed token gets 401 by cookie and by bearer', async () => {
      const u = await signUpUser(t.app);
      const other = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD });
      const out = await rest(
        t.app,
        'POST',
        '/api/settings/logout',
        {},
        { cookie: u.token, headers: { 'content-type': 'application/json' } },
      );
      assert.equal(out.status, 200);
      assert.deepEqual(out.body, { success: true, message: 'Logged out successfully', redirectUrl: null });
      assert.match(cookieOf(out.res.headers['set-cookie']), /token=;.*Expires=Thu, 01 Jan 1970/);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: u.token })).status, 401);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: u.token })).status, 401);
      assert.equal(
        (await rest(t.app, 'PUT', '/api/settings/change-name', { name: 'Replayed' }, { bearer: u.token })).status,
        401,
      );
      // Only that session ended: the user's other sign-in is untouched.
      assert.equal(
        (await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: String(other.body.token) })).status,
        200,
      );
    });

    test('logout without a session still succeeds and clears the cookie', async () => {
      const r = await rest(t.app, 'POST', '/api/settings/logout', {});
      assert.equal(r.status, 200);
      assert.equal(r.body.message, 'Logged out successfully');
    });

    test('logout takes no payload: an empty JSON-labelled body is fine', async () => {
      const u = await signUpUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/settings/logout',
        headers: { 'content-type': 'application/json' },
        cookies: { token: u.token },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: u.token })).status, 401);
    });

    test('req 2: an idle session ends after SESSION_IDLE_HOURS; an active one slides', async () => {
      const idle = await signUpUser(t.app);
      const active = await signUpUser(t.app);
      const setLastUsed = (token: string, ago: number) =>
        t.deps.db
          .update(sessions)
          .set({ lastUsedAt: new Date(Date.now() - ago) })
          .where(eq(sessions.tokenHash, hashToken(token)));
      await setLastUsed(idle.token, 12 * HOUR + 60_000);
      await setLastUsed(active.token, 11 * HOUR);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: idle.token })).status, 401);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: active.token })).status, 200);
      const [row] = await t.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(active.token)));
      assert.ok(Date.now() - (row?.lastUsedAt.getTime() ?? 0) < 60_000, 'use moved the idle deadline forward');
    });

    test('req 2: a session ends after its 7-day lifetime even when in use', async () => {
      const u = await signUpUser(t.app);
      await t.deps.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, hashToken(u.token)));
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: u.token })).status, 401);
    });

    test('me requires authentication', async () => {
      assert.equal((await rest(t.app, 'GET', '/api/auth/me')).status, 401);
      assert.equal((await trpc(t.app, 'query', 'auth.me')).status, 401);
    });
  });
}
