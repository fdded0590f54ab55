import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { userIdentities } from '../../server/src/db/schema.js';
import { rest, signUpUser } from '../auth/auth-helpers.js';
import { idpPerson, ssoLogin, useSsoApp } from '../helpers/sso-flow.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import type { TestApp } from '../helpers/test-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * Issue 39, "not reached by the scan": account linking with case or Unicode look-alike addresses.
 * The same address in other case is the same account (and still needs its password once); a
 * look-alike (Cyrillic "а", fullwidth "ａ") is another address: never linked to the account it
 * imitates, whatever the IdP says about it.
 */
describe('SSO account linking with look-alike addresses', () => {
  let idp: TTestIdp;
  let t: TestApp;
  useSsoApp({ OIDC_AUTO_REGISTER: 'true', OIDC_ALLOWED_DOMAINS: 'hospital.example' }, (app, provider) => {
    t = app;
    idp = provider;
  });

  const identitiesOf = (userId: string) =>
    t.deps.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));

  test('the same address in other case asks for the account password before linking', async () => {
    const local = await signUpUser(t.app, { email: `alice-${uniqueSuffix()}@hospital.example` });
    const sub = idpPerson(idp, { email: local.email.toUpperCase(), email_verified: true });
    const r = await ssoLogin(t, idp, sub);
    assert.equal(r.location, '/login?sso_link=1');
    assert.equal(r.token, undefined);
    assert.deepEqual(await identitiesOf(local.id), []);
  });

  for (const [label, imitate] of [
    ['a Cyrillic а', (e: string) => `\u0430${e.slice(1)}`],
    ['a fullwidth ａ', (e: string) => `\uff41${e.slice(1)}`],
  ] as const) {
    test(`${label} in place of a Latin a is another address: never linked to the account it imitates`, async () => {
      const local = await signUpUser(t.app, { email: `alice-${uniqueSuffix()}@hospital.example` });
      const sub = idpPerson(idp, { email: imitate(local.email), email_verified: true, name: 'Not Alice' });
      const r = await ssoLogin(t, idp, sub);
      assert.notEqual(r.location, '/login?sso_link=1', 'no link to the imitated account is offered');
      assert.deepEqual(await identitiesOf(local.id), []);
      if (r.token) {
        const me = await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: r.token });
        const user = me.body.user as { id: string; email: string };
        assert.notEqual(user.id, local.id);
        assert.notEqual(user.email, local.email);
      }
    });
  }
});
