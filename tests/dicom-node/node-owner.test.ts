import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { DICOM_OWNER_MESSAGES } from '@contracts/schemas/dicom-owner.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { OWNER_NO_ACCOUNT, OWNER_UNCONFIRMED } from '../../server/src/services/dicom-node/dicom-owner.js';
import { OWNER_CHECK_MS } from '../../server/src/services/dicom-node/watch-dicom-owner.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { freePort } from '../helpers/start-orthanc.js';
import { FAST_HASH_ENV, PASSWORD, rest, signUpUser, trpc, uniqueEmail } from '../auth/auth-helpers.js';
import { startInbox, type TReceived } from '../auth/smtp-inbox.js';
import { untilNodeAccepts } from './support/node-owner.js';

const run = promisify(execFile);
const NODE_AE = 'CXR_AI';
const LINK_RE = /(http\S+\/api\/dicom-owner\/confirm\?token=([A-Za-z0-9_-]+))/;

/**
 * Issue 36, S11: the node listened before DICOM_OWNER_EMAIL's account existed, and whoever first
 * signed up with that address received every study. Now the owner is resolved at boot and every
 * few seconds, and is proven only once the account exists and its owner has followed the link
 * mailed to the address (sent when the account is made, and from Settings; once, for an hour).
 * Until then associations are rejected, /readyz says why and the web app keeps serving.
 */
describe('the DICOM node takes studies only for a proven owner (issue 36, S11)', () => {
  let t: TestApp;
  let port: number;
  let inbox: Awaited<ReturnType<typeof startInbox>>;
  const ownerEmail = uniqueEmail('dicom-owner');

  /** echoscu's verdict: true when the association was accepted and the C-ECHO answered. */
  const echo = () =>
    run('echoscu', ['-to', '10', '-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(port)]).then(
      () => true,
      () => false,
    );
  const readyz = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json<{ dicomNode?: { accepting: boolean; reason: string | null } }>() };
  };
  /** Polls /readyz (generous limit: the watcher looks every OWNER_CHECK_MS) until `want` holds. */
  const untilReadyz = async (want: (n: { accepting: boolean; reason: string | null }) => boolean) => {
    const end = Date.now() + 4 * OWNER_CHECK_MS + 10_000;
    for (;;) {
      const node = (await readyz()).body.dicomNode;
      if (node && want(node)) return node;
      if (Date.now() > end) throw new Error(`/readyz never got there: ${JSON.stringify(node)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const linkOf = (mail: TReceived) => {
    const m = LINK_RE.exec(mail.text);
    assert.ok(m, mail.text);
    const url = new URL(m[1]!);
    return { path: url.pathname + url.search, token: m[2]! };
  };

  beforeAll(async () => {
    port = await freePort();
    inbox = await startInbox();
    t = await createTestApp({
      background: true,
      env: {
        ...FAST_HASH_ENV,
        SMTP_URL: inbox.url,
        SMTP_FROM: 'CXR <cxr@hospital.example>',
        PUBLIC_URL: 'https://cxr.hospital.example',
        DICOM_PORT: String(port),
        DICOM_AE_TITLE: NODE_AE,
        DICOM_ALLOWED_CALLERS: 'STORESCU@localhost',
        DICOM_OWNER_EMAIL: ownerEmail.toUpperCase(),
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  let owner: Awaited<ReturnType<typeof signUpUser>>;
  let autoLink: { path: string; token: string };

  test('at boot, with no account for the address, the node refuses and /readyz says why; the web app serves', async () => {
    const node = await untilReadyz((n) => n.reason === OWNER_NO_ACCOUNT);
    assert.equal(node.accepting, false);
    const r = await readyz();
    assert.equal(r.status, 200, 'the web app stays in rotation: the owner needs it to confirm');
    assert.equal(await echo(), false, 'the association is rejected');
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  });

  test('signing up with the address is not enough: a link is mailed to it and the node still refuses', async () => {
    owner = await signUpUser(t.app, { email: ownerEmail });
    const mail = await inbox.next();
    assert.deepEqual(mail.to, [ownerEmail]);
    assert.match(mail.text, /Confirm the DICOM node owner address/);
    autoLink = linkOf(mail);
    assert.ok(autoLink.path.startsWith('/api/dicom-owner/confirm?token='));
    assert.match(mail.text, /https:\/\/cxr\.hospital\.example\/api\/dicom-owner\/confirm/, 'built from PUBLIC_URL');
    // Valid for one hour, stored hashed.
    const ttl = await t.deps.redis.ttl(`${t.deps.config.QUEUE_PREFIX}:dicom-owner-verify:${hashToken(autoLink.token)}`);
    assert.ok(ttl > 3500 && ttl <= 3600, `ttl ${ttl}`);

    // The watcher has seen the account (before this fix it would now accept: the first sign-up won).
    const node = await untilReadyz((n) => n.reason !== OWNER_NO_ACCOUNT);
    assert.deepEqual(node, { accepting: false, reason: OWNER_UNCONFIRMED });
    assert.equal(await echo(), false, 'a sign-up alone proves nothing');
    assert.deepEqual((await trpc(t.app, 'query', 'dicomOwner.state', undefined, { bearer: owner.token })).data, {
      owner: true,
      confirmed: false,
    });
  });

  test('Settings sends another link to the owner only', async () => {
    const other = await signUpUser(t.app);
    assert.deepEqual((await trpc(t.app, 'query', 'dicomOwner.state', undefined, { bearer: other.token })).data, {
      owner: false,
      confirmed: false,
    });
    const refused = await trpc(t.app, 'mutation', 'dicomOwner.requestConfirmation', undefined, {
      bearer: other.token,
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.error?.message, DICOM_OWNER_MESSAGES.notOwner);

    const sent = await trpc(t.app, 'mutation', 'dicomOwner.requestConfirmation', undefined, { bearer: owner.token });
    assert.equal(sent.data?.message, DICOM_OWNER_MESSAGES.sent);
    const mail = await inbox.next();
    assert.deepEqual(mail.to, [ownerEmail]);
    assert.notEqual(linkOf(mail).token, autoLink.token, 'a new link each time');
    assert.equal(inbox.received.length, 0, 'nothing was mailed for the other account');
  });

  test('a made-up token is refused', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dicom-owner/confirm?token=not-a-token' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json<{ message: string }>().message, DICOM_OWNER_MESSAGES.invalid);
  });

  test('following the mailed link proves the owner: the node accepts within a few seconds; the link works once', async () => {
    const opened = await t.app.inject({ method: 'GET', url: autoLink.path });
    assert.equal(opened.statusCode, 303, opened.body);
    // Settings says in words what the link did (issue 41 part 6); '/settings' was no route at all.
    assert.equal(opened.headers.location, '/chat/settings?dicom-owner=confirmed');
    assert.equal(opened.json<{ message: string }>().message, DICOM_OWNER_MESSAGES.confirmed);
    assert.deepEqual(await untilReadyz((n) => n.accepting), { accepting: true, reason: null });
    await untilNodeAccepts(port, NODE_AE);

    const again = await t.app.inject({ method: 'GET', url: autoLink.path });
    assert.equal(again.statusCode, 400, 'the link works once');
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const inBrowser = await t.app.inject({ method: 'GET', url: autoLink.path, headers: { accept: html } });
    assert.equal(
      inBrowser.statusCode,
      303,
      'a browser following a used link lands on Settings, which refuses in words',
    );
    assert.equal(inBrowser.headers.location, '/chat/settings?dicom-owner=invalid');
    assert.equal(inBrowser.json<{ success: boolean }>().success, false);
    assert.deepEqual((await trpc(t.app, 'query', 'dicomOwner.state', undefined, { bearer: owner.token })).data, {
      owner: true,
      confirmed: true,
    });
    const more = await trpc(t.app, 'mutation', 'dicomOwner.requestConfirmation', undefined, { bearer: owner.token });
    assert.equal(more.status, 409, 'nothing to confirm any more');
  });

  test('when the account is deleted the node refuses again, and a new sign-up with the address starts unproven', async () => {
    const deleted = await rest(
      t.app,
      'POST',
      '/api/settings/delete-account',
      { confirm_delete: true, password: PASSWORD },
      { bearer: owner.token },
    );
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await untilReadyz((n) => n.reason === OWNER_NO_ACCOUNT);
    assert.equal(await echo(), false);

    await signUpUser(t.app, { email: ownerEmail });
    await inbox.next(); // the new link goes to the mailbox, not to whoever signed up
    await untilReadyz((n) => n.reason === OWNER_UNCONFIRMED);
    assert.equal(await echo(), false);
  });
});
