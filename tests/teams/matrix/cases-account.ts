import { randomBytes } from 'node:crypto';
import { ANYONE, SIGNED_IN, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { createApiKey } from '../../../server/src/services/api-key/create-api-key.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/**
 * The account, API keys and the site: nothing here reaches team rows, so every role answers
 * alike. None of the actors is a site administrator, so the site's calls are 403 for all of them.
 */

const newEmail = () => `signup-${randomBytes(4).toString('hex')}@example.org`;
const NEW_PASSWORD = 'a brand new passphrase 42';
/** A site administrator's call: refused to every team role, and 401 without an account. */
const SITE_ADMIN: TAnswers = SIGNED_IN(403);
/** The caller's own e-mail (no account: one nobody has). */
const emailOf = (c: TCallCtx) => (c.actor === 'anon' ? newEmail() : emailFor(c));
function emailFor(c: TCallCtx): string {
  const u = c.actor === 'anon' ? null : c.w.users[c.actor === 'teamKey' ? 'admin' : c.actor];
  return u ? u.user.email : newEmail();
}
/** Deleting the account: the team's only admin must hand over first (409); others may. */
const DELETE_ACCOUNT: TAnswers = [409, 200, 200, 200, 401];

/** A login carries no credential; the team key column sends the key along with the password. */
const keyOnly = (c: TCallCtx) => (c.actor === 'teamKey' ? c.token : null);

/** An API key of the caller's, made through the API so the revoke row revokes a real one. */
async function ownKeyId(c: TCallCtx): Promise<string> {
  if (!c.token) return '00000000-0000-4000-8000-000000000000';
  // The team key cannot make keys: the revoke rows aim it at its own creator's key.
  if (c.actor === 'teamKey')
    return (await createApiKey({ db: c.t.deps.db, meta: null, userId: c.self, name: 'matrix' })).apiKey.id;
  const res = await c.t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'matrix' }),
  });
  return (res.json() as { data: { apiKey: { id: string } } }).data.apiKey.id;
}

export const accountCases: TCase[] = [
  {
    surface: 'POST /api/auth/check-email',
    expect: ANYONE(200),
    call: (c) => restStatus(c.t, 'POST', '/api/auth/check-email', c.token, { email: emailOf(c) }),
  },
  {
    surface: 'POST /api/auth/login',
    variant: "the caller's own credentials (no account: an unknown address)",
    expect: [200, 200, 200, 200, 401],
    call: (c) => restStatus(c.t, 'POST', '/api/auth/login', keyOnly(c), { email: emailOf(c), password: c.password }),
  },
  {
    surface: 'POST /api/auth/signup',
    variant: 'a new address',
    expect: ANYONE(200),
    call: (c) =>
      restStatus(c.t, 'POST', '/api/auth/signup', c.token, {
        name: 'New Person',
        email: newEmail(),
        password: NEW_PASSWORD,
      }),
  },
  {
    surface: 'POST /api/auth/forgot-password',
    expect: ANYONE(200),
    call: (c) => restStatus(c.t, 'POST', '/api/auth/forgot-password', c.token, { email: emailOf(c) }),
  },
  {
    surface: 'POST /api/auth/reset-password',
    variant: 'a token nobody was sent',
    expect: ANYONE(400),
    call: (c) =>
      restStatus(c.t, 'POST', '/api/auth/reset-password', c.token, { token: 'no-such-token', password: NEW_PASSWORD }),
  },
  { surface: 'GET /api/auth/me', expect: SIGNED_IN(200), call: (c) => restStatus(c.t, 'GET', '/api/auth/me', c.token) },
  {
    surface: 'GET /api/auth/oidc/options',
    expect: ANYONE(200),
    call: (c) => restStatus(c.t, 'GET', '/api/auth/oidc/options', c.token),
  },
  {
    surface: 'mutation auth.checkEmail',
    expect: ANYONE(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'auth.checkEmail', c.token, { email: emailOf(c) }),
  },
  {
    surface: 'mutation auth.login',
    variant: "the caller's own credentials (no account: an unknown address)",
    expect: [200, 200, 200, 200, 401],
    call: (c) => trpcStatus(c.t, 'mutation', 'auth.login', keyOnly(c), { email: emailOf(c), password: c.password }),
  },
  {
    surface: 'mutation auth.signup',
    variant: 'a new address',
    expect: ANYONE(200),
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'auth.signup', c.token, {
        name: 'New Person',
        email: newEmail(),
        password: NEW_PASSWORD,
      }),
  },
  {
    surface: 'mutation auth.forgotPassword',
    expect: ANYONE(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'auth.forgotPassword', c.token, { email: emailOf(c) }),
  },
  {
    surface: 'mutation auth.resetPassword',
    variant: 'a token nobody was sent',
    expect: ANYONE(400),
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'auth.resetPassword', c.token, { token: 'no-such-token', password: NEW_PASSWORD }),
  },
  { surface: 'query auth.me', expect: SIGNED_IN(200), call: (c) => trpcStatus(c.t, 'query', 'auth.me', c.token) },
  {
    surface: 'POST /api/settings/logout',
    variant: 'ends the session, if any',
    expect: ANYONE(200),
    call: (c) => restStatus(c.t, 'POST', '/api/settings/logout', c.token),
  },
  {
    surface: 'PUT /api/settings/change-name',
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'PUT', '/api/settings/change-name', c.token, { name: 'Dr Renamed' }),
  },
  {
    surface: 'PUT /api/settings/change-password',
    expect: SIGNED_IN(200),
    call: (c) =>
      restStatus(c.t, 'PUT', '/api/settings/change-password', c.token, {
        current_password: c.password,
        new_password: NEW_PASSWORD,
        confirm_password: NEW_PASSWORD,
      }),
  },
  {
    surface: 'POST /api/settings/clear-chats',
    variant: "the caller's personal chats (team chats stay)",
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'POST', '/api/settings/clear-chats', c.token, { confirm_clear: true }),
  },
  {
    surface: 'POST /api/settings/clear-profiles',
    variant: "the caller's personal profiles (team profiles stay)",
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'POST', '/api/settings/clear-profiles', c.token, { confirm_clear: true }),
  },
  {
    surface: 'POST /api/settings/delete-account',
    expect: DELETE_ACCOUNT,
    call: (c) =>
      restStatus(c.t, 'POST', '/api/settings/delete-account', c.token, { confirm_delete: true, password: c.password }),
  },
  {
    surface: 'mutation settings.logout',
    variant: 'ends the session, if any',
    expect: ANYONE(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'settings.logout', c.token),
  },
  {
    surface: 'mutation settings.changeName',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'settings.changeName', c.token, { name: 'Dr Renamed' }),
  },
  {
    surface: 'mutation settings.changePassword',
    expect: SIGNED_IN(200),
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'settings.changePassword', c.token, {
        current_password: c.password,
        new_password: NEW_PASSWORD,
        confirm_password: NEW_PASSWORD,
      }),
  },
  {
    surface: 'mutation settings.clearChats',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'settings.clearChats', c.token, { confirm_clear: true }),
  },
  {
    surface: 'mutation settings.clearProfiles',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'settings.clearProfiles', c.token, { confirm_clear: true }),
  },
  {
    surface: 'mutation settings.deleteAccount',
    expect: DELETE_ACCOUNT,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'settings.deleteAccount', c.token, { confirm_delete: true, password: c.password }),
  },
  {
    surface: 'GET /api/api-keys',
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'GET', '/api/api-keys', c.token),
  },
  {
    surface: 'POST /api/api-keys',
    variant: 'a personal key',
    expect: SIGNED_IN(201),
    call: (c) => restStatus(c.t, 'POST', '/api/api-keys', c.token, { name: 'matrix' }),
  },
  {
    surface: 'POST /api/api-keys',
    variant: 'a team key (team_id)',
    expect: [201, 403, 403, 404, 401],
    call: (c) => restStatus(c.t, 'POST', '/api/api-keys', c.token, { name: 'pacs', team_id: c.w.teamId }),
  },
  {
    surface: 'DELETE /api/api-keys/{id}',
    variant: "the caller's own key",
    expect: SIGNED_IN(200),
    call: async (c) => restStatus(c.t, 'DELETE', `/api/api-keys/${await ownKeyId(c)}`, c.token),
  },
  {
    surface: 'query apiKey.list',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'query', 'apiKey.list', c.token),
  },
  {
    surface: 'mutation apiKey.create',
    variant: 'a personal key',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'apiKey.create', c.token, { name: 'matrix' }),
  },
  {
    surface: 'mutation apiKey.create',
    variant: 'a team key (teamId)',
    expect: [200, 403, 403, 404, 401],
    call: (c) => trpcStatus(c.t, 'mutation', 'apiKey.create', c.token, { name: 'pacs', team_id: c.w.teamId }),
  },
  {
    surface: 'mutation apiKey.revoke',
    variant: "the caller's own key",
    expect: SIGNED_IN(200),
    call: async (c) => trpcStatus(c.t, 'mutation', 'apiKey.revoke', c.token, { id: await ownKeyId(c) }),
  },
  {
    surface: 'GET /api/site/verify-admin',
    variant: 'a token nobody was sent',
    expect: ANYONE(400),
    call: (c) => restStatus(c.t, 'GET', '/api/site/verify-admin?token=nope', c.token),
  },
  {
    surface: 'GET /api/site/calibration',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', '/api/site/calibration', c.token),
  },
  {
    surface: 'POST /api/site/calibration/propose',
    expect: SITE_ADMIN,
    call: (c) =>
      restStatus(c.t, 'POST', '/api/site/calibration/propose', c.token, { source: 'feedback', method: 'threshold' }),
  },
  {
    surface: 'PUT /api/site/calibration',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'PUT', '/api/site/calibration', c.token, { calibrationId: c.self }),
  },
  {
    surface: 'DELETE /api/site/calibration',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'DELETE', '/api/site/calibration', c.token),
  },
  {
    surface: 'GET /api/site/monitoring',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', '/api/site/monitoring', c.token),
  },
  {
    surface: 'query site.access',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'query', 'site.access', c.token),
  },
  {
    surface: 'mutation site.requestAdminVerification',
    variant: 'an address not listed in SITE_ADMIN_EMAILS',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.requestAdminVerification', c.token),
  },
  {
    surface: 'query site.calibration',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.calibration', c.token),
  },
  {
    surface: 'mutation site.proposeCalibration',
    expect: SITE_ADMIN,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'site.proposeCalibration', c.token, { source: 'feedback', method: 'threshold' }),
  },
  {
    surface: 'mutation site.applyCalibration',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.applyCalibration', c.token, { calibrationId: c.self }),
  },
  {
    surface: 'mutation site.revertCalibration',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.revertCalibration', c.token),
  },
  {
    surface: 'query site.stowForwarding',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.stowForwarding', c.token),
  },
  {
    surface: 'mutation site.setStowForwarding',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.setStowForwarding', c.token, { email: newEmail(), forward: true }),
  },
  {
    surface: 'query site.monitoring',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.monitoring', c.token, {}),
  },
  {
    surface: 'query site.urgentFindings',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.urgentFindings', c.token),
  },
  {
    surface: 'mutation site.setUrgentFindings',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.setUrgentFindings', c.token, { labels: [] }),
  },
  {
    surface: 'query site.destinations',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'query', 'site.destinations', c.token),
  },
  {
    surface: 'mutation site.testDestination',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.testDestination', c.token, { destination: 'hl7' }),
  },
  {
    surface: 'GET /api/site/destinations',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', '/api/site/destinations', c.token),
  },
  {
    surface: 'POST /api/site/destinations/test',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', '/api/site/destinations/test', c.token, { destination: 'dicom' }),
  },
  {
    surface: 'GET /api/site/stow-forwarding',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'GET', '/api/site/stow-forwarding', c.token),
  },
  {
    surface: 'PUT /api/site/stow-forwarding',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'PUT', '/api/site/stow-forwarding', c.token, { email: newEmail(), forward: true }),
  },
  {
    surface: 'GET /api/auth/oidc/identities',
    expect: SIGNED_IN(200),
    call: (c) => restStatus(c.t, 'GET', '/api/auth/oidc/identities', c.token),
  },
  {
    surface: 'DELETE /api/auth/oidc/identities/{identityId}',
    variant: 'an id the caller has not linked',
    expect: SIGNED_IN(404),
    call: (c) => restStatus(c.t, 'DELETE', `/api/auth/oidc/identities/${c.self}`, c.token),
  },
  {
    surface: 'query sso.identities',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'query', 'sso.identities', c.token),
  },
  {
    surface: 'mutation sso.unlinkIdentity',
    variant: 'an id the caller has not linked',
    expect: SIGNED_IN(404),
    call: (c) => trpcStatus(c.t, 'mutation', 'sso.unlinkIdentity', c.token, { identityId: c.self }),
  },
  {
    surface: 'POST /api/site/sso-preview',
    expect: SITE_ADMIN,
    call: (c) => restStatus(c.t, 'POST', '/api/site/sso-preview', c.token, {}),
  },
  {
    surface: 'mutation site.previewTeamMapping',
    expect: SITE_ADMIN,
    call: (c) => trpcStatus(c.t, 'mutation', 'site.previewTeamMapping', c.token, {}),
  },
];
