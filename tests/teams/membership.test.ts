import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { teamInvitations, teamMembers } from '../../server/src/db/schema.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { invitationTokenFor } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_ENV, trpc } from '../history/http.js';

/** The fields of the teams routes' answers these tests read (each answer has some of them). */
interface TData {
  team: { id: string; name: string; role: string };
  teams: { id: string; role: string }[];
  members: { userId: string; role: string }[];
  invitations: unknown[];
}

/** A REST call with a JSON body and a Bearer token, any method (PATCH included). */
async function call(app: FastifyInstance, method: string, url: string, token: string | null, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json() as { success: boolean; message?: string; data: TData } };
}

for (const backend of testBackends()) {
  describe(`teams: membership on ${backend}`, () => {
    let t: TestApp;
    let admin: TTestUser;
    let reader: TTestUser;
    let stranger: TTestUser;
    let teamId: string;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      [admin, reader, stranger] = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    });
    afterAll(async () => {
      await t.close();
    });

    test('creating a team: 3-80 characters; the creator is its admin', async () => {
      const short = await call(t.app, 'POST', '/api/teams', admin.token, { name: 'ab' });
      assert.equal(short.status, 400);
      assert.equal(short.body.message, TEAM_MESSAGES.nameLength);
      assert.equal((await call(t.app, 'POST', '/api/teams', admin.token, { name: 'x'.repeat(81) })).status, 400);
      const made = await call(t.app, 'POST', '/api/teams', admin.token, { name: "Radiology — St Mary's" });
      assert.equal(made.status, 201);
      teamId = made.body.data.team.id;
      assert.equal(made.body.data.team.name, "Radiology — St Mary's");
      const mine = await call(t.app, 'GET', '/api/teams', admin.token);
      assert.deepEqual(
        mine.body.data.teams.map((x) => [x.id, x.role]),
        [[teamId, 'admin']],
      );
      assert.deepEqual((await call(t.app, 'GET', '/api/teams', reader.token)).body.data.teams, []);
    });

    test('an invitation is e-mailed, bound to its address, valid once', async () => {
      const bad = await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, admin.token, {
        email: reader.user.email,
        role: 'surgeon',
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.message, TEAM_MESSAGES.roleInvalid);
      const notAdmin = await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, stranger.token, {
        email: stranger.user.email,
        role: 'admin',
      });
      assert.equal(notAdmin.status, 404, 'a stranger cannot tell the team exists');
      const sent = await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, admin.token, {
        email: reader.user.email.toUpperCase(),
        role: 'radiologist',
      });
      assert.equal(sent.status, 201);
      const token = await invitationTokenFor(t.deps, reader.user.email);
      const [stored] = await t.deps.db.select().from(teamInvitations).where(eq(teamInvitations.teamId, teamId));
      assert.ok(stored && stored.tokenHash !== token, 'only the hash is stored');
      const days = (stored.expiresAt.getTime() - Date.now()) / 86_400_000;
      assert.ok(days > 6.99 && days <= 7, `expires in ${days} days`);

      const wrong = await call(t.app, 'POST', '/api/teams/join', stranger.token, { token });
      assert.equal(wrong.status, 403);
      assert.equal(wrong.body.message, TEAM_MESSAGES.invitationOtherAddress);
      const joined = await call(t.app, 'POST', '/api/teams/join', reader.token, { token });
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
      assert.equal(joined.body.data.team.role, 'radiologist');
      const again = await call(t.app, 'POST', '/api/teams/join', reader.token, { token });
      assert.equal(again.status, 400);
      assert.equal(again.body.message, TEAM_MESSAGES.invitationInvalid);

      const member = await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, admin.token, {
        email: reader.user.email,
        role: 'clinician',
      });
      assert.equal(member.status, 409);
      assert.equal(member.body.message, TEAM_MESSAGES.alreadyMember);
    });

    test('an expired invitation is refused and changes nothing', async () => {
      const invitee = await createUser(t.deps);
      await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, admin.token, {
        email: invitee.user.email,
        role: 'clinician',
      });
      const token = await invitationTokenFor(t.deps, invitee.user.email);
      await t.deps.db
        .update(teamInvitations)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(teamInvitations.email, invitee.user.email));
      const r = await call(t.app, 'POST', '/api/teams/join', invitee.token, { token });
      assert.equal(r.status, 400);
      assert.deepEqual((await call(t.app, 'GET', '/api/teams', invitee.token)).body.data.teams, []);
    });

    test("members see the list; another team's member list is 404; team ids that are not UUIDs are 404", async () => {
      const list = await call(t.app, 'GET', `/api/teams/${teamId}/members`, reader.token);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.data.members.map((m) => m.role).sort(), ['admin', 'radiologist']);
      assert.deepEqual(list.body.data.invitations, [], 'only admins see invitations');
      const outsider = await call(t.app, 'GET', `/api/teams/${teamId}/members`, stranger.token);
      const missing = await call(t.app, 'GET', `/api/teams/${randomUUID()}/members`, stranger.token);
      const malformed = await call(t.app, 'GET', `/api/teams/not-a-team/members`, stranger.token);
      assert.equal(outsider.status, 404);
      assert.deepEqual(outsider.body, missing.body);
      assert.deepEqual(malformed.body, missing.body);
    });

    test('the last admin can neither be demoted nor leave; roles change', async () => {
      const demote = await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${admin.user.id}`, admin.token, {
        role: 'clinician',
      });
      assert.equal(demote.status, 409);
      assert.equal(demote.body.message, TEAM_MESSAGES.lastAdmin);
      const leave = await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${admin.user.id}`, admin.token);
      assert.equal(leave.status, 409);
      const byReader = await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${reader.user.id}`, reader.token, {
        role: 'admin',
      });
      assert.equal(byReader.status, 403, 'a radiologist cannot manage');
      const promote = await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${reader.user.id}`, admin.token, {
        role: 'admin',
      });
      assert.equal(promote.status, 200);
      const back = await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${reader.user.id}`, admin.token, {
        role: 'radiologist',
      });
      assert.equal(back.status, 200);
    });

    test('removal takes effect on the next request, through a cached session and an API key', async () => {
      const { chat } = await createChat(t.deps, admin.user.id, { teamId, withMessages: true });
      const keyRes = await trpc(t.app, 'mutation', 'apiKey.create', reader.token, { name: 'script' });
      const key = (keyRes.data as { key: string }).key;
      for (const cred of [reader.token, key]) {
        // Twice: the second read is served from the session cache.
        for (let i = 0; i < 2; i++)
          assert.equal((await trpc(t.app, 'query', 'history.get', cred, { chatId: chat.id })).status, 200);
      }
      const removed = await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${reader.user.id}`, admin.token);
      assert.equal(removed.status, 200);
      for (const cred of [reader.token, key]) {
        const r = await trpc(t.app, 'query', 'history.get', cred, { chatId: chat.id });
        assert.equal(r.status, 404);
        const list = await trpc(t.app, 'query', 'history.list', cred, { team: teamId });
        assert.equal(list.status, 404);
      }
      const rows = await t.deps.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId));
      assert.deepEqual(
        rows.map((r) => r.userId),
        [admin.user.id],
      );
    });

    test('a member can leave', async () => {
      const c = await createUser(t.deps);
      await t.deps.db.insert(teamMembers).values({ teamId, userId: c.user.id, role: 'clinician' });
      const left = await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${c.user.id}`, c.token);
      assert.equal(left.status, 200);
      assert.equal(left.body.message, TEAM_MESSAGES.left);
      assert.equal((await call(t.app, 'GET', `/api/teams/${teamId}/members`, c.token)).status, 404);
    });
  });
}
