import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { SITE_MESSAGES, siteAdminLanding } from '@contracts/schemas/site.js';
import { parseSiteAdminArgs, runSiteAdminCommand } from '../../scripts/site-admin/site-admin-command.js';
import { announceSessionsEnded } from '../../server/src/services/auth/session-cache.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { uniqueEmail } from '../auth/auth-helpers.js';
import { FAST_HASH_ENV, rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { startInbox } from '../auth/smtp-inbox.js';

/**
 * Issue 23 N3: SITE_ADMIN_EMAILS gave the role to whoever signed up first with a listed address.
 * The role now needs proof: a link mailed to that address, or the operator's command.
 */
describe('site admins by proof, not by signup (issue 23 N3)', () => {
  let t: TestApp;
  let inbox: Awaited<ReturnType<typeof startInbox>>;
  const listed = uniqueEmail('listed-admin');
  beforeAll(async () => {
    inbox = await startInbox();
    t = await createTestApp({
      env: {
        ...FAST_HASH_ENV,
        SMTP_URL: inbox.url,
        SMTP_FROM: 'CXR <cxr@hospital.example>',
        SITE_ADMIN_EMAILS: listed,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  const monitoring = async (token: string) =>
    (await rest(t.app, 'GET', '/api/site/monitoring?weeks=4', undefined, { bearer: token })).status;

  test('signing up with a listed address gives no role; the mailed link does', async () => {
    const u = await signUpUser(t.app, { email: listed });
    assert.equal(await monitoring(u.token), 403, 'a signup alone is not proof');
    assert.deepEqual((await trpc(t.app, 'query', 'site.access', undefined, { bearer: u.token })).data, {
      siteAdmin: false,
      canClaim: true,
    });
    const sent = await trpc(t.app, 'mutation', 'site.requestAdminVerification', undefined, { bearer: u.token });
    assert.equal(sent.data?.message, SITE_MESSAGES.verifySent);
    const mail = await inbox.next();
    assert.deepEqual(mail.to, [listed]);
    const link = /(http\S+\/api\/site\/verify-admin\?token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    const url = new URL(link);
    const opened = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(opened.statusCode, 303, opened.body);
    // Settings says in words what the link did (issue 41 part 6): only the outcome rides along.
    assert.equal(opened.headers.location, siteAdminLanding('confirmed'));
    assert.equal(opened.headers.location, '/chat/settings?site-admin=confirmed');
    assert.equal(await monitoring(u.token), 200, 'the role holds once the mailbox is proven');
    const again = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(again.statusCode, 400, 'the link works once');
    assert.equal(again.json().message, SITE_MESSAGES.verifyInvalid);
    // A browser following a used link lands on Settings too, which then shows the refusal.
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const inBrowser = await t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { accept: html } });
    assert.equal(inBrowser.statusCode, 303);
    assert.equal(inBrowser.headers.location, '/chat/settings?site-admin=invalid');
    assert.equal(inBrowser.json().success, false);
  });

  test('an unlisted account cannot ask for a link', async () => {
    const u = await signUpUser(t.app);
    const res = await trpc(t.app, 'mutation', 'site.requestAdminVerification', undefined, { bearer: u.token });
    assert.equal(res.status, 403);
  });

  test('applying or reverting thresholds needs a password session: an admin API key is refused', async () => {
    const u = await signUpUser(t.app);
    assert.equal(
      await runSiteAdminCommand({ db: t.deps.db, command: { verb: 'add', email: u.email }, print: () => {} }),
      0,
    );
    const keyRes = await rest(t.app, 'POST', '/api/api-keys', { name: 'script' }, { bearer: u.token });
    const key = String((keyRes.body.data as { key: string }).key);
    assert.equal(await monitoring(key), 200, 'a key may read the monitor');
    for (const [method, payload] of [
      ['PUT', { calibrationId: '00000000-0000-4000-8000-000000000000' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await rest(t.app, method, '/api/site/calibration', payload, { bearer: key });
      assert.equal(r.status, 403, `${method} with an API key: ${JSON.stringify(r.body)}`);
    }
    const viaTrpc = await trpc(t.app, 'mutation', 'site.revertCalibration', undefined, { bearer: key });
    assert.equal(viaTrpc.status, 403);
    // With the password session the call reaches the service (nothing applied yet: 404).
    assert.equal((await rest(t.app, 'DELETE', '/api/site/calibration', undefined, { bearer: u.token })).status, 404);
  });

  test('npm run site-admin: add, list, remove, and its exit codes', async () => {
    const u = await signUpUser(t.app);
    const lines: string[] = [];
    const run = (argv: string[]) =>
      runSiteAdminCommand({
        db: t.deps.db,
        command: parseSiteAdminArgs(argv),
        print: (l) => lines.push(l),
        announce: (userId) => announceSessionsEnded({ ...t.deps, userId }),
      });
    assert.equal(await monitoring(u.token), 403);
    assert.equal(await run(['add', u.email.toUpperCase()]), 0);
    assert.equal(await monitoring(u.token), 200);
    assert.equal(await run(['list']), 0);
    assert.ok(
      lines.some((l) => l.startsWith(u.email)),
      lines.join('\n'),
    );
    assert.equal(await run(['remove', u.email]), 0);
    assert.equal(await monitoring(u.token), 403);
    assert.equal(await run(['add', uniqueEmail('nobody')]), 1, 'no such account');
    assert.throws(() => parseSiteAdminArgs(['grant', u.email]), /add, remove or list/);
    const cli = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/site-admin/site-admin.ts', ...args], {
        encoding: 'utf8',
      });
    const help = cli(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /add EMAIL \| remove EMAIL \| list/);
    assert.equal(cli(['add']).status, 2);
    assert.equal(cli(['frob', 'x@y.org']).status, 2);
  });
});
