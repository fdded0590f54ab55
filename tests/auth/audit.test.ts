import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { promisify } from 'node:util';
import { asc, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../server/src/db/client.js';
import { auditLog } from '../../server/src/db/schema.js';
import { recordAudit } from '../../server/src/services/audit/record-audit.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createPostgresDatabase, pgliteSnapshot, testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, uniqueEmail } from './auth-helpers.js';
import { resetTokenIn, startInbox } from './smtp-inbox.js';

const run = promisify(execFile);
const NEW_PASSWORD = 'the next passphrase';

/** Runs `npm run audit:verify`'s script against a database; returns its exit code and output. */
async function verifyCommand(env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/verify-audit.ts'], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

for (const backend of testBackends()) {
  describe(`audit of account events on ${backend}`, () => {
    let t: TestApp;
    let inbox: Awaited<ReturnType<typeof startInbox>>;
    beforeAll(async () => {
      inbox = await startInbox();
      t = await createTestApp({ backend, env: { ...FAST_HASH_ENV, SMTP_URL: inbox.url } });
    });
    afterAll(async () => {
      await t.close();
      await inbox.close();
    });

    test('req 10: sign-ins, password changes and resets, clears and deletion are audited with ids only', async () => {
      const ip = randomIp();
      const u = await signUpUser(t.app, { name: 'Dr Audited Person', ip });
      const ghost = uniqueEmail('ghost');
      await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD }, { ip });
      await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: 'wrong password' }, { ip });
      await rest(t.app, 'POST', '/api/auth/login', { email: ghost, password: 'wrong password' }, { ip });
      await rest(
        t.app,
        'PUT',
        '/api/settings/change-password',
        { current_password: 'wrong password', new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
        { bearer: u.token, ip },
      );
      await rest(
        t.app,
        'PUT',
        '/api/settings/change-password',
        { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
        { bearer: u.token, ip },
      );
      await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip });
      const { token: resetToken } = resetTokenIn((await inbox.next()).text);
      await rest(t.app, 'POST', '/api/auth/reset-password', { token: resetToken, password: PASSWORD }, { ip });
      const again = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD }, { ip });
      const session = String(again.body.token);
      await rest(t.app, 'POST', '/api/settings/clear-chats', { confirm_clear: true }, { bearer: session, ip });
      await rest(t.app, 'POST', '/api/settings/clear-profiles', { confirm_clear: true }, { bearer: session, ip });
      await rest(
        t.app,
        'POST',
        '/api/settings/delete-account',
        { confirm_delete: true, password: PASSWORD },
        { bearer: session, ip },
      );

      const entries = await t.deps.db.select().from(auditLog).where(eq(auditLog.ip, ip)).orderBy(asc(auditLog.id));
      const seen = entries.map(
        (e) => `${e.action}:${e.outcome}:${e.actorUserId === u.id ? 'user' : (e.actorUserId ?? 'none')}`,
      );
      assert.deepEqual(seen, [
        'auth.signup:success:user',
        'auth.login:success:user',
        'auth.login:failure:user',
        'auth.login:failure:none',
        'settings.change_password:failure:user',
        'settings.change_password:success:user',
        'auth.password_reset_request:success:user',
        'auth.password_reset:success:user',
        'auth.login:success:user',
        'settings.clear_chats:success:user',
        'settings.clear_profiles:success:user',
        'account.delete:success:user',
      ]);
      for (const e of entries) {
        assert.ok(e.requestId && e.at instanceof Date, 'who, when and which request');
        assert.equal(e.objectType, 'user');
      }
      const text = JSON.stringify(entries);
      for (const secret of [
        u.email,
        ghost,
        'Dr Audited Person',
        PASSWORD,
        NEW_PASSWORD,
        u.token,
        session,
        resetToken,
      ]) {
        assert.ok(!text.includes(secret), `no secrets or personal data in the audit log (${secret.slice(0, 3)}…)`);
      }
    });

    test('req 10: the database refuses UPDATE and DELETE on the audit log', async () => {
      await recordAudit({
        db: t.deps.db,
        meta: null,
        entry: { actorUserId: null, action: 'test.append', outcome: 'success' },
      });
      const appendOnly = (err: unknown) => /append-only/.test(String((err as { cause?: Error }).cause?.message ?? err));
      await assert.rejects(t.deps.db.update(auditLog).set({ outcome: 'failure' }), appendOnly);
      await assert.rejects(t.deps.db.delete(auditLog), appendOnly);
    });
  });

  describe(`audit:verify on ${backend}`, () => {
    let dir: string;
    let pg: Awaited<ReturnType<typeof createPostgresDatabase>> | null = null;
    let env: Record<string, string>;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'cxr-audit-'));
      pg = backend === 'postgres' ? await createPostgresDatabase() : null;
      env = pg
        ? { DATABASE_URL: pg.url, DATA_DIR: dir }
        : { DATABASE_URL: '', PGLITE_DIR: join(dir, 'pg'), DATA_DIR: dir };
    });
    afterAll(async () => {
      await pg?.drop();
      await rm(dir, { recursive: true, force: true });
    });

    test('req 10: the command passes an intact chain and names the first tampered entry', async () => {
      const open = () => openDatabase({ url: pg?.url, pgliteDir: join(dir, 'pg'), pgliteSnapshot: pgliteSnapshot() });
      let database = await open();
      for (const action of ['auth.login', 'settings.change_password', 'account.delete']) {
        await recordAudit({
          db: database.db,
          meta: { ip: '10.0.0.1', requestId: 'r' },
          entry: { actorUserId: null, action, outcome: 'success' },
        });
      }
      const [second] = await database.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .orderBy(asc(auditLog.id))
        .offset(1)
        .limit(1);
      await database.close();

      const intact = await verifyCommand(env);
      assert.equal(intact.code, 0, intact.out);
      assert.match(intact.out, /audit log intact: 3 entries verified/);

      // Someone with database superuser rights switches the trigger off and rewrites history.
      database = await open();
      await database.db.execute(sql`alter table audit_log disable trigger audit_log_no_update`);
      await database.db.execute(sql`update audit_log set outcome = 'failure' where id = ${second?.id ?? 0}`);
      await database.db.execute(sql`alter table audit_log enable trigger audit_log_no_update`);
      await database.close();

      const broken = await verifyCommand(env);
      assert.equal(broken.code, 1, broken.out);
      assert.match(broken.out, new RegExp(`BROKEN at entry id ${second?.id}`));
    });
  });
}
