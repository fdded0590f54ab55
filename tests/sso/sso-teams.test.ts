import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, teamMembers, teams, users } from '../../server/src/db/schema.js';
import type { TSsoTeamChange, TTeamMappingPreview } from '@contracts/schemas/sso.js';
import { PASSWORD, rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { cookieValue, idpPerson, ssoLogin, useSsoApp } from '../helpers/sso-flow.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import { createTeam } from '../helpers/team-factories.js';
import type { TestApp } from '../helpers/test-app.js';
import { testBackends, uniqueSuffix } from '../helpers/test-config.js';

const TEAM_MAP = [
  'cxr-rad-admins=radiology:admin',
  'cxr-radiology=radiology:radiologist',
  'cxr-ed=emergency:clinician',
  'cxr-ward-admins=ward:admin',
  'cxr-ghost=ghost:clinician',
  'cxr-twin=twin:clinician',
].join(',');

type TTeams = Record<'radiology' | 'emergency' | 'ward' | 'oncology', string>;

/** The teams the map names (Ghost and Twin are missing), each but Ward with an admin made by hand. */
async function seedTeams(t: TestApp): Promise<TTeams> {
  const owner = await signUpUser(t.app);
  const radiology = await createTeam(t.deps, { [owner.id]: 'admin' }, { name: 'Radiology' });
  const emergency = await createTeam(t.deps, { [owner.id]: 'admin' }, { name: 'Emergency' });
  const ward = await createTeam(t.deps, {}, { name: 'Ward' });
  const oncology = await createTeam(t.deps, { [owner.id]: 'admin' }, { name: 'Oncology' });
  return { radiology: radiology.id, emergency: emergency.id, ward: ward.id, oncology: oncology.id };
}

/** userId's memberships: team name → role and who granted it. */
async function membershipsOf(t: TestApp, userId: string): Promise<Record<string, string>> {
  const rows = await t.deps.db
    .select({ name: teams.name, role: teamMembers.role, source: teamMembers.source })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId));
  return Object.fromEntries(rows.map((r) => [r.name, `${r.role}/${r.source}`]));
}

const person = (groups: string[], email = `p-${uniqueSuffix()}@hospital.example`) => ({
  email,
  email_verified: true,
  name: 'Dr Sam Example',
  groups,
});

async function userIdOf(t: TestApp, token: string): Promise<string> {
  const me = await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token });
  return (me.body.user as { id: string }).id;
}

const syncAudits = (t: TestApp, userId: string) =>
  t.deps.db
    .select({ outcome: auditLog.outcome, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, 'team.sso_sync')));

describe('SSO groups → team memberships at every login', () => {
  let idp: TTestIdp;
  let t: TestApp;
  let team: TTeams;
  let siteAdmin: { token: string };
  useSsoApp(
    { OIDC_AUTO_REGISTER: 'true', OIDC_ALLOWED_DOMAINS: 'hospital.example', OIDC_TEAM_MAP: TEAM_MAP },
    (app, provider) => {
      t = app;
      idp = provider;
    },
  );
  beforeAll(async () => {
    team = await seedTeams(t);
    const admin = await signUpUser(t.app);
    await t.deps.db.update(users).set({ siteAdminSince: new Date() }).where(eq(users.id, admin.id));
    siteAdmin = admin;
  });

  test('the first login joins the mapped teams; a group lowered or removed at the IdP applies at the next login', async () => {
    const sub = idpPerson(idp, person(['cxr-rad-admins', 'cxr-ed']));
    const first = await ssoLogin(t, idp, sub);
    // Issue 41: an admin of Radiology (a clinician of Emergency) lands on Radiology's worklist.
    assert.equal(first.location, `/chat/worklist?space=${team.radiology}`);
    const token = String(first.token);
    const userId = await userIdOf(t, token);
    assert.deepEqual(await membershipsOf(t, userId), { Radiology: 'admin/sso', Emergency: 'clinician/sso' });
    const members = (teamId: string) =>
      rest(t.app, 'GET', `/api/teams/${teamId}/members`, undefined, { cookie: token });
    assert.equal((await members(team.emergency)).status, 200);

    idp.accounts.set(sub, person(['cxr-radiology'], String(idp.accounts.get(sub)?.email)));
    assert.equal((await ssoLogin(t, idp, sub)).location, `/chat/worklist?space=${team.radiology}`);
    assert.deepEqual(await membershipsOf(t, userId), { Radiology: 'radiologist/sso' }, 'demoted, and removed');
    // The session from the first login loses the team on its very next request.
    assert.equal((await members(team.emergency)).status, 404);
    const audits = await syncAudits(t, userId);
    assert.deepEqual(audits.map((a) => (a.details as { change: string }).change).sort(), [
      'change',
      'join',
      'join',
      'remove',
    ]);
  });

  test('memberships granted by hand are kept in the default mode; a confirmed link applies the mapped ones', async () => {
    const local = await signUpUser(t.app);
    await t.deps.db.insert(teamMembers).values([
      { teamId: team.emergency, userId: local.id, role: 'radiologist' },
      { teamId: team.oncology, userId: local.id, role: 'clinician' },
    ]);
    const sub = idpPerson(idp, person(['cxr-ed', 'cxr-radiology'], local.email));
    const r = await ssoLogin(t, idp, sub);
    assert.equal(r.location, '/login?sso_link=1');
    const link = cookieValue(r.res, 'sso_link');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/link',
      payload: { password: PASSWORD },
      cookies: { sso_link: String(link) },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(await membershipsOf(t, local.id), {
      Emergency: 'radiologist/manual',
      Oncology: 'clinician/manual',
      Radiology: 'radiologist/sso',
    });
  });

  test("a team's last admin is kept when the IdP drops their group, and removed once another admin exists", async () => {
    const sub = idpPerson(idp, person(['cxr-ward-admins']));
    const userId = await userIdOf(t, String((await ssoLogin(t, idp, sub)).token));
    assert.deepEqual(await membershipsOf(t, userId), { Ward: 'admin/sso' });
    idp.accounts.set(sub, person([], String(idp.accounts.get(sub)?.email)));
    assert.equal((await ssoLogin(t, idp, sub)).location, `/chat/worklist?space=${team.ward}`, 'the login goes ahead');
    assert.deepEqual(await membershipsOf(t, userId), { Ward: 'admin/sso' }, 'Ward is not left without an admin');
    const kept = (await syncAudits(t, userId)).filter((a) => a.outcome === 'failure');
    assert.equal(kept.length, 1);
    assert.equal((kept[0]?.details as { reason: string }).reason, 'last_admin');

    const other = await signUpUser(t.app);
    await t.deps.db.insert(teamMembers).values({ teamId: team.ward, userId: other.id, role: 'admin' });
    await ssoLogin(t, idp, sub);
    assert.deepEqual(await membershipsOf(t, userId), {});
  });

  test('a map entry whose slug names no team is skipped; the others apply', async () => {
    const sub = idpPerson(idp, person(['cxr-ghost', 'cxr-twin', 'cxr-ed']));
    const userId = await userIdOf(t, String((await ssoLogin(t, idp, sub)).token));
    assert.deepEqual(await membershipsOf(t, userId), { Emergency: 'clinician/sso' });
  });

  test("the site admin's preview (tRPC and REST) names what the next real login then does", async () => {
    const email = `preview-${uniqueSuffix()}@hospital.example`;
    const sub = idpPerson(idp, person(['cxr-rad-admins', 'cxr-ed'], email));
    const userId = await userIdOf(t, String((await ssoLogin(t, idp, sub)).token));
    const claims = { sub, ...person(['cxr-radiology', 'cxr-ghost', 'cxr-twin', 'payroll'], email) };

    const viaTrpc = await trpc(t.app, 'mutation', 'site.previewTeamMapping', { claims }, { bearer: siteAdmin.token });
    assert.equal(viaTrpc.status, 200, JSON.stringify(viaTrpc.error));
    const preview = viaTrpc.data as unknown as TTeamMappingPreview;
    const viaRest = await rest(t.app, 'POST', '/api/site/sso-preview', { claims }, { bearer: siteAdmin.token });
    assert.deepEqual(viaRest.body.data, preview, 'the REST twin answers the same');
    assert.deepEqual(preview.account, { id: userId, email, linkedBy: 'identity' });
    assert.equal(preview.refused, null);
    const byAction = (c: TSsoTeamChange) => `${c.action}:${c.teamName ?? c.slug}:${c.from}->${c.to}:${c.reason}`;
    assert.deepEqual(preview.changes.map(byAction).sort(), [
      'change:Radiology:admin->radiologist:null',
      'remove:Emergency:clinician->null:null',
      'skip:ghost:null->clinician:missing_team',
      'skip:twin:null->clinician:missing_team',
    ]);
    assert.deepEqual(
      await membershipsOf(t, userId),
      { Radiology: 'admin/sso', Emergency: 'clinician/sso' },
      'unchanged',
    );

    // Now the real login with the same claims: the memberships are what the preview said.
    idp.accounts.set(sub, person(['cxr-radiology', 'cxr-ghost', 'cxr-twin', 'payroll'], email));
    await ssoLogin(t, idp, sub);
    const expected = Object.fromEntries(
      preview.changes.filter((c) => c.teamName && c.to).map((c) => [c.teamName, `${c.to}/sso`]),
    );
    assert.deepEqual(await membershipsOf(t, userId), expected);

    const stranger = await trpc(
      t.app,
      'mutation',
      'site.previewTeamMapping',
      { claims },
      { bearer: (await signUpUser(t.app)).token },
    );
    assert.equal(stranger.status, 403, 'site administrators only');
    const fresh = await rest(
      t.app,
      'POST',
      '/api/site/sso-preview',
      { claims: { sub: 'nobody-yet', groups: ['cxr-ed'] } },
      { bearer: siteAdmin.token },
    );
    const newcomer = fresh.body.data as TTeamMappingPreview;
    assert.equal(newcomer.account, null);
    assert.deepEqual(newcomer.changes.map(byAction), ['join:Emergency:null->clinician:null']);
  });
});

describe('SSO groups → teams with OIDC_ROLE_STRICT', () => {
  let idp: TTestIdp;
  let t: TestApp;
  let team: TTeams;
  useSsoApp(
    {
      OIDC_AUTO_REGISTER: 'true',
      OIDC_ALLOWED_DOMAINS: 'hospital.example',
      OIDC_TEAM_MAP: TEAM_MAP,
      OIDC_ROLE_STRICT: 'true',
    },
    (app, provider) => {
      t = app;
      idp = provider;
    },
    // PostgreSQL when the run has one (the row locks and migration 0010 on the real server).
    { backend: testBackends().at(-1) ?? 'pglite' },
  );
  beforeAll(async () => {
    team = await seedTeams(t);
  });

  test('the IdP is the only authority: hand-granted roles follow it; no mapped group refuses the login and changes nothing', async () => {
    const sub = idpPerson(idp, person(['cxr-ed']));
    const first = await ssoLogin(t, idp, sub);
    const userId = await userIdOf(t, String(first.token));
    await t.deps.db.insert(teamMembers).values([
      { teamId: team.radiology, userId, role: 'admin' },
      { teamId: team.oncology, userId, role: 'clinician' },
    ]);
    const email = String(idp.accounts.get(sub)?.email);
    idp.accounts.set(sub, person(['cxr-radiology'], email));
    assert.equal((await ssoLogin(t, idp, sub)).location, `/chat/worklist?space=${team.radiology}`);
    assert.deepEqual(await membershipsOf(t, userId), { Radiology: 'radiologist/sso' });

    for (const groups of [['payroll'], ['cxr-ghost'], []]) {
      idp.accounts.set(sub, person(groups, email));
      const refused = await ssoLogin(t, idp, sub);
      assert.equal(refused.location, '/login?sso_error=no_role', groups.join());
      assert.equal(refused.token, undefined);
    }
    assert.deepEqual(await membershipsOf(t, userId), { Radiology: 'radiologist/sso' }, 'a refusal changes nothing');
  });
});
