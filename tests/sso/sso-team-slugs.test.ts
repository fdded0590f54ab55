import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, teamMembers, teams, users } from '../../server/src/db/schema.js';
import { reportMissingMappedTeams } from '../../server/src/services/sso/report-missing-mapped-teams.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { idpFor, idpPerson, ssoEnv, ssoLogin } from '../helpers/sso-flow.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends, uniqueSuffix } from '../helpers/test-config.js';

/** Where a reader of a mapped team lands (sso-landing.ts): the team's worklist. */
const WORKLIST_LANDING = /^\/chat\/worklist\?space=[0-9a-f-]{36}$/;

/**
 * Issue 39 S1 and S3 through a real OpenID Provider: a team named so that it shares a mapped
 * team's slug ("RADIOLOGY!" beside "Radiology") made the slug ambiguous, and the next SSO login of
 * every member removed them; a mapped team that did not exist yet could be created by anyone,
 * who then received every SSO member of the group. Slugs are now unique and mapped ones reserved.
 */
const TEAM_MAP = 'cxr-radiology=radiology:radiologist,cxr-ed=emergency:clinician';

const person = (groups: string[]) => ({
  email: `p-${uniqueSuffix()}@hospital.example`,
  email_verified: true,
  name: 'Dr Sam Example',
  groups,
});

for (const strict of ['false', 'true']) {
  describe(`mapped team slugs (OIDC_ROLE_STRICT=${strict})`, () => {
    let idp: TTestIdp;
    let t: TestApp;
    let siteAdmin: { id: string; token: string };
    let attacker: { id: string; token: string };

    const memberships = async (userId: string) =>
      (
        await t.deps.db
          .select({ name: teams.name, role: teamMembers.role })
          .from(teamMembers)
          .innerJoin(teams, eq(teams.id, teamMembers.teamId))
          .where(eq(teamMembers.userId, userId))
      ).map((m) => `${m.name}:${m.role}`);
    const userIdOf = async (token: string) =>
      ((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).body.user as { id: string }).id;
    const createTeamAs = (token: string, name: string) =>
      rest(t.app, 'POST', '/api/teams', { name }, { bearer: token });

    beforeAll(async () => {
      idp = await idpFor();
      t = await createTestApp({
        env: ssoEnv(idp, {
          OIDC_AUTO_REGISTER: 'true',
          OIDC_ALLOWED_DOMAINS: 'hospital.example',
          OIDC_TEAM_MAP: TEAM_MAP,
          OIDC_ROLE_STRICT: strict,
        }),
        backend: strict === 'true' ? (testBackends().at(-1) ?? 'pglite') : 'pglite',
      });
      siteAdmin = await signUpUser(t.app);
      await t.deps.db.update(users).set({ siteAdminSince: new Date() }).where(eq(users.id, siteAdmin.id));
      attacker = await signUpUser(t.app);
    });
    afterAll(async () => {
      await t.close();
      await idp.stop();
    });

    test("S1: a name sharing a mapped team's slug is refused, and the SSO members stay", async () => {
      assert.equal((await createTeamAs(siteAdmin.token, 'Radiology')).status, 201);
      const sub = idpPerson(idp, person(['cxr-radiology']));
      const first = await ssoLogin(t, idp, sub);
      // A radiologist of Radiology lands on its worklist (issue 41).
      assert.match(first.location, WORKLIST_LANDING);
      const userId = await userIdOf(String(first.token));
      assert.deepEqual(await memberships(userId), ['Radiology:radiologist']);

      const squat = await createTeamAs(attacker.token, 'RADIOLOGY!');
      assert.equal(squat.status, 403);
      assert.equal(squat.body.message, TEAM_MESSAGES.nameReserved);
      const viaTrpc = await trpc(t.app, 'mutation', 'team.create', { name: 'radiology' }, { bearer: attacker.token });
      assert.equal(viaTrpc.status, 403);
      // Not even a site administrator can make a second team under the slug.
      const twin = await createTeamAs(siteAdmin.token, 'Radiology.');
      assert.equal(twin.status, 409);
      assert.equal(twin.body.message, TEAM_MESSAGES.nameTaken);

      const again = await ssoLogin(t, idp, sub);
      assert.equal(again.location, first.location, 'the next login goes ahead (strict mode refused it before)');
      assert.deepEqual(await memberships(userId), ['Radiology:radiologist'], 'still a member');
      const removals = await t.deps.db
        .select({ details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, 'team.sso_sync')));
      assert.deepEqual(
        removals.map((r) => (r.details as { change: string }).change),
        ['join'],
      );
    });

    test('S3: only a site administrator creates a mapped team that does not exist yet; the boot log names it', async () => {
      const warned: unknown[] = [];
      const log = { ...t.deps.log, warn: (obj: unknown) => warned.push(obj) } as unknown as TestApp['deps']['log'];
      assert.deepEqual(await reportMissingMappedTeams({ ...t.deps, log }), ['emergency']);
      assert.deepEqual(warned, [{ missing: ['emergency'] }]);

      const squat = await createTeamAs(attacker.token, 'Emergency');
      assert.equal(squat.status, 403);
      assert.equal(squat.body.message, TEAM_MESSAGES.nameReserved);
      assert.deepEqual(await memberships(attacker.id), [], 'no team was made');

      const sub = idpPerson(idp, person(['cxr-ed']));
      const before = await ssoLogin(t, idp, sub);
      // Strict mode refuses a person whose groups map to no existing team; the default lets them in.
      // The default lets them in, in no team yet: the root (their personal space).
      assert.equal(before.location, strict === 'true' ? '/login?sso_error=no_role' : '/');

      assert.equal((await createTeamAs(siteAdmin.token, 'Emergency')).status, 201);
      assert.deepEqual(await reportMissingMappedTeams({ ...t.deps, log }), []);
      const after = await ssoLogin(t, idp, sub);
      // A clinician of Emergency now: its patients (issue 41).
      assert.match(after.location, /^\/chat\/profiles\?space=[0-9a-f-]{36}$/);
      assert.deepEqual(await memberships(await userIdOf(String(after.token))), ['Emergency:clinician']);
      // The site administrator who made it is its admin; the squatter is nowhere.
      assert.deepEqual(await memberships(attacker.id), []);
    });
  });
}
