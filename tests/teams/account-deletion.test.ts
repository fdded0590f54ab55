import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import {
  analyses,
  chats,
  findingFeedback,
  patientProfiles,
  storedImages,
  teamMembers,
  teams,
  users,
} from '../../server/src/db/schema.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { createChat, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';
import { seedRows } from './matrix/matrix-world.js';

/**
 * Issue 32: deleting an account keeps what it made in its teams. The rows lose their author
 * (user_id null) and stay the team's; the personal space goes; the last admin of a team with
 * other members must hand over first; a team the account was alone in goes with it.
 */
for (const backend of testBackends()) {
  describe(`teams: deleting a member's account on ${backend}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
    });
    afterAll(async () => {
      await t.close();
    });

    const deleteAccount = (u: TTestUser) =>
      rest(t.app, 'POST', '/api/settings/delete-account', u.token, { confirm_delete: true, password: u.password });

    test("a clinician's team rows survive their account, authorless; their personal rows go", async () => {
      const [admin, reader, leaver, colleague] = [
        await createUser(t.deps),
        await createUser(t.deps),
        await createUser(t.deps),
        await createUser(t.deps),
      ];
      const team = await createTeam(t.deps, {
        [admin.user.id]: 'admin',
        [reader.user.id]: 'radiologist',
        [leaver.user.id]: 'clinician',
        [colleague.user.id]: 'clinician',
      });
      const made = await seedRows(t, team.id, leaver.user.id);
      const fb = await trpc(t.app, 'mutation', 'feedback.save', leaver.token, {
        chatId: made.chatId,
        finding: 'pneumonia',
        verdict: 'agree',
      });
      assert.equal(fb.status, 200);
      const personal = await createChat(t.deps, leaver.user.id, { withImage: true, analysisStatus: 'completed' });
      const personalProfile = await createProfile(t.deps, leaver.user.id);

      const r = await deleteAccount(leaver);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal((await t.deps.db.select().from(users).where(eq(users.id, leaver.user.id))).length, 0);

      // The team's rows are all there, with no author.
      for (const [table, id] of [
        [chats, made.chatId],
        [patientProfiles, made.profileId],
        [analyses, made.analysisId],
        [storedImages, made.imageId],
        [storedImages, made.heatmapId],
      ] as const) {
        const [row] = await t.deps.db
          .select({ userId: table.userId, teamId: table.teamId })
          .from(table)
          .where(eq(table.id, id));
        assert.deepEqual(row, { userId: null, teamId: team.id }, `${table === chats ? 'chat' : 'row'} ${id}`);
      }
      const feedback = await t.deps.db.select().from(findingFeedback).where(eq(findingFeedback.chatId, made.chatId));
      assert.deepEqual(
        feedback.map((f) => [f.userId, f.verdict]),
        [[null, 'agree']],
        'the reading stays, not re-attributed to anyone',
      );
      // The personal space went with the account.
      assert.equal((await t.deps.db.select().from(chats).where(eq(chats.id, personal.chat.id))).length, 0);
      assert.equal(
        (await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, personalProfile.id))).length,
        0,
      );

      // Members still read it all, and the image file is still served.
      const list = await trpc(t.app, 'query', 'history.list', colleague.token, { team: team.id });
      assert.ok(JSON.stringify(list.data).includes(made.chatId));
      assert.equal((await rest(t.app, 'GET', `/api/images/${made.imageId}`, colleague.token)).status, 200);
      assert.equal((await rest(t.app, 'GET', `/api/export/${made.chatId}.json`, colleague.token)).status, 200);
      // Nobody made it now: a clinician cannot change it, a radiologist or admin can.
      const rename = (u: TTestUser) =>
        trpc(t.app, 'mutation', 'history.editTitle', u.token, { chatId: made.chatId, title: 'Handed over' });
      assert.equal((await rename(colleague)).status, 404);
      assert.equal((await rename(reader)).status, 200);
      assert.equal(
        (await rest(t.app, 'DELETE', `/api/profile/${admin.user.id}/${made.profileId}`, admin.token)).status,
        200,
      );
    });

    test('the last admin of a team with other members is refused until they hand over; nothing changes', async () => {
      const [admin, reader] = [await createUser(t.deps), await createUser(t.deps)];
      const team = await createTeam(t.deps, { [admin.user.id]: 'admin', [reader.user.id]: 'radiologist' });
      const made = await seedRows(t, team.id, admin.user.id);

      const refused = await deleteAccount(admin);
      assert.equal(refused.status, 409);
      assert.equal((refused.body as { message: string }).message, `${TEAM_MESSAGES.lastAdminDeleting} (${team.name})`);
      const viaTrpc = await trpc(t.app, 'mutation', 'settings.deleteAccount', admin.token, {
        confirm_delete: true,
        password: admin.password,
      });
      assert.equal(viaTrpc.status, 409);
      assert.equal((await t.deps.db.select().from(users).where(eq(users.id, admin.user.id))).length, 1);
      const [chat] = await t.deps.db.select({ userId: chats.userId }).from(chats).where(eq(chats.id, made.chatId));
      assert.equal(chat?.userId, admin.user.id, 'the refused deletion handed nothing over');
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', admin.token)).status, 200, 'still signed in');

      const promote = await trpc(t.app, 'mutation', 'team.changeRole', admin.token, {
        teamId: team.id,
        userId: reader.user.id,
        role: 'admin',
      });
      assert.equal(promote.status, 200);
      assert.equal((await deleteAccount(admin)).status, 200);
      const members = await t.deps.db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id));
      assert.deepEqual(
        members.map((m) => [m.userId, m.role]),
        [[reader.user.id, 'admin']],
      );
      assert.equal((await trpc(t.app, 'query', 'history.get', reader.token, { chatId: made.chatId })).status, 200);
    });

    test('a team the account was alone in goes with it, rows and files', async () => {
      const solo = await createUser(t.deps);
      const team = await createTeam(t.deps, { [solo.user.id]: 'admin' });
      const made = await seedRows(t, team.id, solo.user.id);
      const [image] = await t.deps.db.select().from(storedImages).where(eq(storedImages.id, made.imageId));
      assert.equal((await deleteAccount(solo)).status, 200);
      assert.equal((await t.deps.db.select().from(teams).where(eq(teams.id, team.id))).length, 0);
      assert.equal(
        (
          await t.deps.db
            .select()
            .from(chats)
            .where(inArray(chats.id, [made.chatId]))
        ).length,
        0,
        'its rows went with the team',
      );
      await assert.rejects(t.deps.images.get(image!.storageKey), 'its files were removed');
    });

    test('a personal row can never lose its author (the check constraint)', async () => {
      const u = await createUser(t.deps);
      const p = await createProfile(t.deps, u.user.id);
      await assert.rejects(t.deps.db.update(patientProfiles).set({ userId: null }).where(eq(patientProfiles.id, p.id)));
    });
  });
}
