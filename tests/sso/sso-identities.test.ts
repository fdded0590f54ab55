import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../../server/src/db/schema.js';
import { SSO_MESSAGES, type TLinkedIdentities } from '@contracts/schemas/sso.js';
import { rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { idpPerson, ssoLogin, useSsoApp } from '../helpers/sso-flow.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import type { TestApp } from '../helpers/test-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';

const identitiesOf = async (t: TestApp, token: string) =>
  (await trpc(t.app, 'query', 'sso.identities', undefined, { bearer: token })).data as unknown as TLinkedIdentities;

const unlink = (t: TestApp, token: string, identityId: string) =>
  rest(t.app, 'DELETE', `/api/auth/oidc/identities/${identityId}`, undefined, { bearer: token });

const audited = async (t: TestApp, userId: string, action: string) =>
  (
    await t.deps.db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(and(eq(auditLog.objectId, userId), eq(auditLog.action, action)))
  ).map((r) => r.outcome);

describe('linked hospital sign-ins under Settings → Profile', () => {
  let idp: TTestIdp;
  let t: TestApp;
  useSsoApp({ OIDC_AUTO_REGISTER: 'true', OIDC_ALLOWED_DOMAINS: 'hospital.example' }, (app, provider) => {
    t = app;
    idp = provider;
  });

  test('a signed-in person links a sign-in from Settings, sees it, and unlinks it while the password remains', async () => {
    const local = await signUpUser(t.app);
    // Any address at the IdP: the person proved both sides, so no e-mail match is needed.
    const sub = idpPerson(idp, { email: `other-${uniqueSuffix()}@elsewhere.example`, email_verified: false });
    const linked = await ssoLogin(t, idp, sub, undefined, { cookie: local.token, link: true });
    assert.equal(linked.location, '/settings?sso_linked=1');
    const list = await identitiesOf(t, local.token);
    assert.equal(list.identities.length, 1);
    assert.equal(list.identities[0]?.issuer, idp.issuer);
    assert.equal(list.hasPassword, true);
    assert.equal(list.buttonText, 'St Elsewhere');
    assert.equal((await ssoLogin(t, idp, sub)).location, '/', 'the linked sign-in now signs this account in');

    const other = await signUpUser(t.app);
    const stolen = await ssoLogin(t, idp, sub, undefined, { cookie: other.token, link: true });
    assert.equal(stolen.location, '/settings?sso_error=link_other_account');
    assert.equal((await identitiesOf(t, other.token)).identities.length, 0);

    const id = String(list.identities[0]?.id);
    const removed = await unlink(t, local.token, id);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await identitiesOf(t, local.token)).identities.length, 0);
    assert.equal((await unlink(t, local.token, id)).status, 404);
    assert.deepEqual(await audited(t, local.id, 'auth.sso_link'), ['success']);
    assert.deepEqual(await audited(t, local.id, 'auth.sso_unlink'), ['success']);
    assert.deepEqual(await audited(t, other.id, 'auth.sso_link'), ['failure']);
  });

  test('an SSO-only account keeps its last sign-in, and may drop one once another is linked', async () => {
    const email = `only-${uniqueSuffix()}@hospital.example`;
    const first = idpPerson(idp, { email, email_verified: true });
    const token = String((await ssoLogin(t, idp, first)).token);
    const [only] = (await identitiesOf(t, token)).identities;
    assert.equal((await identitiesOf(t, token)).hasPassword, false);
    const refused = await unlink(t, token, String(only?.id));
    assert.equal(refused.status, 409);
    assert.equal(refused.body.message, SSO_MESSAGES.lastSignIn);

    const second = idpPerson(idp, { email, email_verified: true });
    assert.equal(
      (await ssoLogin(t, idp, second, undefined, { cookie: token, link: true })).location,
      '/settings?sso_linked=1',
    );
    assert.equal((await unlink(t, token, String(only?.id))).status, 200);
    assert.equal((await ssoLogin(t, idp, second)).location, '/', 'the remaining sign-in works');
    assert.equal(
      (await ssoLogin(t, idp, first)).location,
      '/login?sso_link=1',
      'the unlinked one no longer signs in: it is a new identity, whose link needs the password again',
    );
  });

  test('a link must come back to the browser and account that started it; an API key cannot unlink', async () => {
    const a = await signUpUser(t.app);
    const b = await signUpUser(t.app);
    const sub = idpPerson(idp, { email: `x-${uniqueSuffix()}@hospital.example`, email_verified: true });
    const swapped = await ssoLogin(t, idp, sub, async () => undefined, { cookie: a.token, link: true });
    assert.equal(swapped.location, '/settings?sso_linked=1');
    idp.nextLogin = sub;
    const start = await t.app.inject({
      method: 'GET',
      url: '/api/auth/oidc/login?link=1',
      cookies: { token: b.token },
    });
    const tx = String(start.cookies.find((c) => c.name === 'sso_tx')?.value);
    const cb = await idp.signIn(String(start.headers.location));
    // The callback arrives with A's session, not B's who started it.
    const back = await t.app.inject({
      method: 'GET',
      url: cb.pathname + cb.search,
      cookies: { token: a.token, sso_tx: tx },
    });
    assert.equal(back.headers.location, '/settings?sso_error=bad_response');
    assert.equal((await identitiesOf(t, b.token)).identities.length, 0);

    const anonymous = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login?link=1' });
    assert.equal(anonymous.headers.location, '/login?sso_error=bad_response');

    const key = await trpc(t.app, 'mutation', 'apiKey.create', { name: 'script' }, { bearer: a.token });
    const apiKey = String((key.data as { key?: string } | undefined)?.key ?? '');
    assert.ok(apiKey, JSON.stringify(key));
    const [identity] = (await identitiesOf(t, a.token)).identities;
    const viaKey = await rest(t.app, 'DELETE', `/api/auth/oidc/identities/${String(identity?.id)}`, undefined, {
      bearer: apiKey,
    });
    assert.equal(viaKey.status, 403);
  });
});
