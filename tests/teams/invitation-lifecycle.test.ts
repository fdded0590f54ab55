import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, teamInvitations } from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { startInbox } from '../auth/smtp-inbox.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_ENV, trpc } from '../history/http.js';

/**
 * Issue 39 S4 over a real SMTP exchange: invitations can be withdrawn, die with their inviter's
 * admin role, and are voided when their address joins, leaves or is removed.
 */
async function call(app: FastifyInstance, method: string, url: string, token: string, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json() as { message?: string; data?: { invitationId?: string } } };
}

for (const backend of testBackends()) {
  describe(`invitations: revoke, inviter, voiding on ${backend}`, () => {
    let t: TestApp;
    let inbox: Awaited<ReturnType<typeof startInbox>>;
    let admin: TTestUser;
    let coAdmin: TTestUser;
    let teamId: string;

    /** Invites `email` as `by`, and reads the link's token from the mail the relay received. */
    const invite = async (by: TTestUser, email: string, role = 'clinician') => {
      const sent = await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, by.token, { email, role });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      const mail = await inbox.next();
      assert.deepEqual(mail.to, [email]);
      const token = /\/teams\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      assert.ok(token && sent.body.data?.invitationId, 'a link, and the invitation id in the answer');
      return { token, id: sent.body.data.invitationId };
    };
    const join = (u: TTestUser, token: string) => call(t.app, 'POST', '/api/teams/join', u.token, { token });
    const pendingFor = (email: string) =>
      t.deps.db
        .select({ id: teamInvitations.id })
        .from(teamInvitations)
        .where(
          and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.email, email), isNull(teamInvitations.usedAt)),
        );

    /** A pending invitation written straight to the table (no mail): its token. */
    const strayInvitation = async (email: string) => {
      const token = randomBytes(24).toString('base64url');
      await t.deps.db.insert(teamInvitations).values({
        teamId,
        email,
        role: 'admin',
        tokenHash: hashToken(token),
        invitedBy: admin.user.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      return token;
    };

    beforeAll(async () => {
      inbox = await startInbox();
      t = await createTestApp({ backend, env: { ...TEST_ENV, SMTP_URL: inbox.url } });
      [admin, coAdmin] = [await createUser(t.deps), await createUser(t.deps)];
      teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin', [coAdmin.user.id]: 'admin' })).id;
    });
    afterAll(async () => {
      await t.close();
      await inbox.close();
    });

    test('an admin revokes a pending invitation (REST and tRPC); its link is dead; others may not; audited', async () => {
      const invitee = await createUser(t.deps);
      const first = await invite(admin, invitee.user.email);
      const reader = await createUser(t.deps);
      await call(t.app, 'POST', `/api/teams/${teamId}/invitations`, admin.token, {
        email: reader.user.email,
        role: 'radiologist',
      });
      await join(reader, (await inbox.next()).text.match(/token=([A-Za-z0-9_-]+)/)?.[1] ?? '');
      const url = `/api/teams/${teamId}/invitations/${first.id}`;
      assert.equal((await call(t.app, 'DELETE', url, reader.token)).status, 403, 'a radiologist may not');
      assert.equal((await call(t.app, 'DELETE', url, invitee.token)).status, 404, 'a stranger learns nothing');
      const revoked = await call(t.app, 'DELETE', url, admin.token);
      assert.deepEqual(revoked, { status: 200, body: { success: true, message: TEAM_MESSAGES.invitationRevoked } });
      assert.equal((await call(t.app, 'DELETE', url, admin.token)).status, 404, 'gone');
      const dead = await join(invitee, first.token);
      assert.equal(dead.status, 400);
      assert.equal(dead.body.message, TEAM_MESSAGES.invitationInvalid);

      const second = await invite(admin, invitee.user.email);
      const viaTrpc = await trpc(t.app, 'mutation', 'team.revokeInvitation', coAdmin.token, {
        teamId,
        invitationId: second.id,
      });
      assert.equal(viaTrpc.status, 200);
      assert.equal((await join(invitee, second.token)).status, 400);
      const audits = await t.deps.db
        .select({ actor: auditLog.actorUserId, objectId: auditLog.objectId })
        .from(auditLog)
        .where(eq(auditLog.action, 'team.revoke_invitation'));
      assert.deepEqual(
        audits.map((a) => [a.actor, a.objectId]).sort(),
        [
          [admin.user.id, first.id],
          [coAdmin.user.id, second.id],
        ].sort(),
      );
    });

    test('an invitation from an admin who was since demoted or removed is dead, with a message', async () => {
      const inviter = await createUser(t.deps);
      const inviterInvite = await invite(admin, inviter.user.email, 'admin');
      assert.equal((await join(inviter, inviterInvite.token)).status, 200);
      const outsider = await createUser(t.deps);
      const asAdmin = await invite(inviter, outsider.user.email, 'admin');
      // The inviter loses the admin role before the link is used.
      const demoted = await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${inviter.user.id}`, admin.token, {
        role: 'clinician',
      });
      assert.equal(demoted.status, 200);
      const refused = await join(outsider, asAdmin.token);
      assert.deepEqual(refused, {
        status: 400,
        body: { success: false, message: TEAM_MESSAGES.invitationInviterGone, code: 'BAD_REQUEST' },
      });
      // Removed altogether: the same.
      const other = await createUser(t.deps);
      await call(t.app, 'PATCH', `/api/teams/${teamId}/members/${inviter.user.id}`, admin.token, { role: 'admin' });
      const later = await invite(inviter, other.user.email, 'radiologist');
      assert.equal(
        (await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${inviter.user.id}`, admin.token)).status,
        200,
      );
      assert.equal((await join(other, later.token)).body.message, TEAM_MESSAGES.invitationInviterGone);
    });

    test("joining voids the address's other links; leaving or being removed voids a link sent before", async () => {
      const member = await createUser(t.deps);
      const a = await invite(admin, member.user.email);
      const b = await invite(coAdmin, member.user.email, 'radiologist');
      assert.equal((await join(member, a.token)).status, 200);
      assert.deepEqual(await pendingFor(member.user.email), [], 'the second link is voided');
      assert.equal((await join(member, b.token)).status, 400);

      // A link that was pending while they were a member (sent before this release voided them on
      // joining): removal voids it, so a removed member cannot walk back in with it.
      const spare = await strayInvitation(member.user.email);
      const removed = await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${member.user.id}`, admin.token);
      assert.equal(removed.status, 200);
      assert.deepEqual(await pendingFor(member.user.email), []);
      assert.equal((await join(member, spare)).status, 400, 'a removed member cannot walk back in');

      const leaver = await createUser(t.deps);
      assert.equal((await join(leaver, (await invite(admin, leaver.user.email)).token)).status, 200);
      await strayInvitation(leaver.user.email);
      const left = await call(t.app, 'DELETE', `/api/teams/${teamId}/members/${leaver.user.id}`, leaver.token);
      assert.equal(left.status, 200);
      assert.deepEqual(await pendingFor(leaver.user.email), []);
    });
  });
}
