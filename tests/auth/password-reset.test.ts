import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { passwordResetTokens } from '../../server/src/db/schema.js';
import { outboxDir } from '@contracts/config/server-config.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { sendMail } from '../../server/src/services/mail/send-mail.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends, testConfig } from '../helpers/test-config.js';
import {
  assertPasswordReplaced,
  FAST_HASH_ENV,
  logIn,
  PASSWORD,
  randomIp,
  rest,
  signUpUser,
  trpc,
  uniqueEmail,
} from './auth-helpers.js';
import { resetTokenIn, startInbox } from './smtp-inbox.js';

const PUBLIC_URL = 'https://cxr.hospital.example';
const NEW_PASSWORD = 'a brand new passphrase';
const INVALID = 'Reset link has expired or is invalid. Please request a new one.';
/** The relay refuses these recipients (a failed delivery), and only these. */
const REFUSED_TAG = 'refused-mailbox';

for (const backend of testBackends()) {
  describe(`password reset on ${backend}`, () => {
    let t: TestApp;
    let inbox: Awaited<ReturnType<typeof startInbox>>;
    beforeAll(async () => {
      inbox = await startInbox({ rejectRecipients: (address) => address.startsWith(REFUSED_TAG) });
      t = await createTestApp({
        backend,
        env: { ...FAST_HASH_ENV, SMTP_URL: inbox.url, PUBLIC_URL, SMTP_FROM: 'CXR <cxr@hospital.example>' },
      });
    });
    afterAll(async () => {
      await t.close();
      await inbox.close();
    });

    async function requestLink(email: string, headers: Record<string, string> = {}) {
      const r = await rest(t.app, 'POST', '/api/auth/forgot-password', { email }, { ip: randomIp(), headers });
      assert.equal(r.status, 200);
      const mail = await inbox.next();
      assert.deepEqual(mail.to, [email]);
      return resetTokenIn(mail.text);
    }

    test('req 5: the link arrives over SMTP and is built from PUBLIC_URL, never from the Host header', async () => {
      const u = await signUpUser(t.app);
      const r = await rest(
        t.app,
        'POST',
        '/api/auth/forgot-password',
        { email: u.email },
        {
          ip: randomIp(),
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' },
        },
      );
      assert.deepEqual(r.body, { success: true, message: 'Password reset link sent to your email!' });
      const mail = await inbox.next();
      assert.equal(mail.from, 'cxr@hospital.example');
      assert.match(mail.text, /Subject: Reset your Chest Doctor AI password/);
      const { link } = resetTokenIn(mail.text);
      assert.ok(link.startsWith(`${PUBLIC_URL}/reset-password?token=`), link);
      assert.doesNotMatch(mail.text, /evil\.example/);
    });

    test('req 5: the token has at least 128 random bits, is stored only hashed and lasts 1 hour', async () => {
      const u = await signUpUser(t.app);
      const { token } = await requestLink(u.email);
      assert.ok(Buffer.from(token, 'base64url').length >= 16);
      const rows = await t.deps.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, u.id));
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.tokenHash, hashToken(token));
      assert.ok(!JSON.stringify(rows).includes(token));
      assert.equal((rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0), 3600_000);
    });

    test('req 5: a reset sets the password, ends every session, and the link works only once', async () => {
      const u = await signUpUser(t.app);
      const second = await logIn(t.app, u.email, PASSWORD);
      const { token } = await requestLink(u.email);
      const r = await rest(t.app, 'POST', '/api/auth/reset-password', { token, password: NEW_PASSWORD });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        success: true,
        message: 'Password reset successfully! Please login with your new password.',
      });
      for (const session of [u.token, String(second.body.token)]) {
        assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: session })).status, 401);
      }
      await assertPasswordReplaced(t.app, u.email, { old: PASSWORD, now: NEW_PASSWORD });
      const again = await rest(t.app, 'POST', '/api/auth/reset-password', { token, password: 'yet another password' });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { success: false, message: INVALID, code: 'BAD_REQUEST' });
    });

    test('req 5: an expired link is refused', async () => {
      const u = await signUpUser(t.app);
      const { token } = await requestLink(u.email);
      await t.deps.db
        .update(passwordResetTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(passwordResetTokens.tokenHash, hashToken(token)));
      const r = await rest(t.app, 'POST', '/api/auth/reset-password', { token, password: NEW_PASSWORD });
      assert.equal(r.status, 400);
      assert.equal(r.body.message, INVALID);
      assert.equal((await logIn(t.app, u.email, PASSWORD)).status, 200);
    });

    test('req 5: a successful reset voids the other outstanding links (tRPC)', async () => {
      const u = await signUpUser(t.app);
      const first = await requestLink(u.email);
      const fresh = await trpc(t.app, 'mutation', 'auth.forgotPassword', { email: u.email }, { ip: randomIp() });
      assert.equal(fresh.data?.message, 'Password reset link sent to your email!');
      const second = resetTokenIn((await inbox.next()).text);
      const done = await trpc(t.app, 'mutation', 'auth.resetPassword', { token: second.token, password: NEW_PASSWORD });
      assert.equal(done.data?.message, 'Password reset successfully! Please login with your new password.');
      const old = await trpc(t.app, 'mutation', 'auth.resetPassword', { token: first.token, password: NEW_PASSWORD });
      assert.equal(old.status, 400);
      assert.equal(old.error?.message, INVALID);
    });

    test('a failed delivery changes nothing in the answer, and the log does not carry the address', async () => {
      const lines: string[] = [];
      const appLog = t.deps.log;
      t.deps.log = pino({ level: 'info' }, { write: (s: string) => lines.push(s) });
      try {
        const u = await signUpUser(t.app, { email: uniqueEmail(REFUSED_TAG) });
        const r = await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip: randomIp() });
        assert.deepEqual([r.status, r.body.message], [200, 'Password reset link sent to your email!']);
        for (let i = 0; i < 100 && !lines.some((l) => l.includes('could not be sent')); i++) await sleep(50);
        const logged = lines.join('');
        assert.match(logged, /password reset email could not be sent/);
        assert.ok(!logged.includes(u.email), 'no address in the log');
      } finally {
        t.deps.log = appLog;
      }
    });

    test('a made-up token is refused like an expired one', async () => {
      const r = await rest(t.app, 'POST', '/api/auth/reset-password', {
        token: 'x'.repeat(43),
        password: NEW_PASSWORD,
      });
      assert.deepEqual([r.status, r.body.message], [400, INVALID]);
    });
  });
}

describe('mail without SMTP_URL', () => {
  test('req 5: each message becomes an .eml file in the outbox; the log names the file, not the address', async () => {
    const config = testConfig({ EMAIL_OUTBOX_DIR: '' });
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => lines.push(s) });
    try {
      const sent = await sendMail({
        config,
        log,
        mail: { to: 'clinician@hospital.example', subject: 'Hello', text: 'A line of text' },
      });
      if (sent.via !== 'outbox') throw new Error(`expected the outbox, got ${sent.via}`);
      const file = sent.file;
      assert.ok(file.startsWith(resolve(outboxDir(config))), file);
      assert.match(file, /\.eml$/);
      const eml = await readFile(file, 'utf8');
      assert.match(eml, /^To: clinician@hospital\.example$/m);
      assert.match(eml, /A line of text/);
      const logged = lines.join('');
      assert.ok(logged.includes(file), 'the log says where the message is');
      assert.ok(!logged.includes('clinician@hospital.example'), 'the log does not carry the address');
    } finally {
      await rm(config.DATA_DIR, { recursive: true, force: true });
    }
  });
});
