import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { recordAudit } from '../../server/src/services/audit/record-audit.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import type { TTeamAuditEntry } from '@contracts/schemas/team.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { teamMembers } from '../../server/src/db/schema.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';
import { seedRows, type TRows } from './matrix/matrix-world.js';

type TPage = { data: { entries: TTeamAuditEntry[]; next_cursor: string | null } };

/**
 * Issue 32 part 5: every entry names its actor and, where it is about a team's row or
 * membership, the team; the team's admins read that trail (reads included), a page at a time.
 */
for (const backend of testBackends()) {
  describe(`teams: the audit trail on ${backend}`, () => {
    let t: TestApp;
    let admin: TTestUser;
    let reader: TTestUser;
    let clinician: TTestUser;
    let outsider: TTestUser;
    let teamId: string;
    let teamName: string;
    let rows: TRows;
    let personalChatId: string;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      [admin, reader, clinician, outsider] = [
        await createUser(t.deps),
        await createUser(t.deps),
        await createUser(t.deps),
        await createUser(t.deps),
      ];
      ({ id: teamId, name: teamName } = await createTeam(t.deps, {
        [admin.user.id]: 'admin',
        [reader.user.id]: 'radiologist',
        [clinician.user.id]: 'clinician',
      }));
      rows = await seedRows(t, teamId, reader.user.id);
      personalChatId = (await createChat(t.deps, reader.user.id)).chat.id;

      // What the trail must show: a read, an export, a reading, an image view, a role change, a deletion.
      assert.equal((await trpc(t.app, 'query', 'history.get', reader.token, { chatId: rows.chatId })).status, 200);
      assert.equal((await rest(t.app, 'GET', `/api/export/${rows.chatId}.json`, clinician.token)).status, 200);
      const fb = { chatId: rows.chatId, finding: 'pneumonia', verdict: 'agree' };
      assert.equal((await trpc(t.app, 'mutation', 'feedback.save', clinician.token, fb)).status, 200);
      assert.equal((await rest(t.app, 'GET', `/api/images/${rows.heatmapId}`, clinician.token)).status, 200);
      const role = { teamId, userId: clinician.user.id, role: 'radiologist' };
      assert.equal((await trpc(t.app, 'mutation', 'team.changeRole', admin.token, role)).status, 200);
      assert.equal(
        (await trpc(t.app, 'mutation', 'profile.delete', reader.token, { profileId: rows.profileId })).status,
        200,
      );
      // A stranger probing the team's chat: the team's admins see who tried.
      assert.equal((await trpc(t.app, 'query', 'history.get', outsider.token, { chatId: rows.chatId })).status, 404);
      // Not the team's: the reader's own personal chat.
      assert.equal((await trpc(t.app, 'query', 'history.get', reader.token, { chatId: personalChatId })).status, 200);
    });
    afterAll(async () => {
      await t.close();
    });

    const trail = (u: TTestUser | null, query = '') =>
      rest(t.app, 'GET', `/api/teams/${teamId}/audit${query}`, u?.token ?? null);

    test('an admin reads who viewed, exported, reviewed, changed roles and deleted, with the actor of each', async () => {
      const r = await trail(admin);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const entries = (r.body as TPage).data.entries;
      const seen = entries.map((e) => [e.action, e.actor.userId, e.outcome]);
      for (const want of [
        ['history.read', reader.user.id, 'success'],
        ['export.json', clinician.user.id, 'success'],
        ['feedback.save', clinician.user.id, 'success'],
        ['team.role_change', admin.user.id, 'success'],
        ['profile.delete', reader.user.id, 'success'],
        ['history.read', outsider.user.id, 'failure'],
      ])
        assert.ok(
          seen.some((s) => JSON.stringify(s) === JSON.stringify(want)),
          `${want.join(' ')} missing from ${JSON.stringify(seen)}`,
        );
      assert.ok(
        entries.some((e) => e.objectId === rows.heatmapId),
        'the image view is in the trail',
      );
      assert.ok(!entries.some((e) => e.objectId === personalChatId), "a member's personal chat is not the team's");
      assert.equal(entries.find((e) => e.actor.userId === reader.user.id)?.actor.name, reader.user.name);
      const ids = entries.map((e) => Number(e.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => b - a),
        'newest first',
      );
      assert.ok(!JSON.stringify(entries).includes('Patient'), 'ids only, no patient names');
    });

    test('pages by keyset: disjoint, newest first, together the whole trail; reading it is audited too', async () => {
      const whole = ((await trail(admin, '?limit=200')).body as TPage).data.entries;
      const pages: TTeamAuditEntry[][] = [];
      let cursor: string | null = null;
      do {
        const r = await trail(admin, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(r.status, 200);
        const page = (r.body as TPage).data;
        pages.push(page.entries);
        cursor = page.next_cursor;
      } while (cursor && pages.length < 50);
      const paged = pages.flat();
      // Each page read adds a team.audit entry newer than every page: the older entries are the same.
      const older = paged.filter((e) => Number(e.id) <= Number(whole[0]?.id));
      assert.deepEqual(
        older.map((e) => e.id),
        whole.map((e) => e.id),
      );
      assert.ok(pages.every((p) => p.length <= 3));
      assert.ok(whole.some((e) => e.action === 'team.audit' && e.actor.userId === admin.user.id));
      assert.equal((await trail(admin, '?cursor=abc')).status, 400);
    });

    test('admins only: members 403, another account or a malformed team id 404, no account 401; tRPC alike', async () => {
      assert.equal((await trail(reader)).status, 403);
      assert.equal((await trail(clinician)).status, 403);
      const stranger = await trail(outsider);
      const missing = await rest(t.app, 'GET', `/api/teams/${randomUUID()}/audit`, outsider.token);
      const malformed = await rest(t.app, 'GET', '/api/teams/not-a-team/audit', outsider.token);
      assert.equal(stranger.status, 404);
      assert.deepEqual(stranger.body, missing.body);
      assert.deepEqual(malformed.body, missing.body);
      assert.equal((await trail(null)).status, 401);
      const viaTrpc = await trpc(t.app, 'query', 'team.audit', admin.token, { teamId, limit: 2 });
      assert.equal(viaTrpc.status, 200);
      assert.equal((viaTrpc.data as { entries: unknown[] }).entries.length, 2);
      assert.equal((await trpc(t.app, 'query', 'team.audit', reader.token, { teamId })).status, 403);
      assert.equal((await trpc(t.app, 'query', 'team.audit', outsider.token, { teamId })).status, 404);
    });

    test('names, not ids: the team, members, rows by their date; nothing of a row the admin may not see', async () => {
      // Entries about rows this admin may not see, filed in this team's trail (as a probe of a
      // foreign id would be): another team, an account outside the team, another's personal analysis.
      const stranger = await createUser(t.deps);
      const otherTeam = await createTeam(t.deps, { [stranger.user.id]: 'admin' });
      const foreign = (await createChat(t.deps, stranger.user.id, { analysisStatus: 'completed' })).analysis;
      assert.ok(foreign);
      const file = (objectType: string, objectId: string) =>
        recordAudit({
          db: t.deps.db,
          meta: null,
          entry: { actorUserId: outsider.user.id, action: 'test.probe', objectType, objectId, outcome: 'failure' },
        }).then(() => undefined);
      const fileInTeam = (objectType: string, objectId: string) =>
        recordAudit({
          db: t.deps.db,
          meta: null,
          entry: {
            actorUserId: outsider.user.id,
            action: 'test.probe',
            objectType,
            objectId,
            outcome: 'failure',
            details: { teamId },
          },
        });
      await fileInTeam('team', otherTeam.id);
      await fileInTeam('user', stranger.user.id);
      await fileInTeam('analysis', foreign.id);
      await fileInTeam('team_invitation', randomUUID());
      await fileInTeam('chat', "not-a-uuid' or 1=1");
      await file('analysis', rows.analysisId);
      // A member who read the team's chat and was then removed: named (the trail names them as an
      // actor anyway), without the e-mail a member's name carries.
      const leaver = await createUser(t.deps);
      await t.deps.db.insert(teamMembers).values({ teamId, userId: leaver.user.id, role: 'clinician' });
      assert.equal((await trpc(t.app, 'query', 'history.get', leaver.token, { chatId: rows.chatId })).status, 200);
      const removed = await trpc(t.app, 'mutation', 'team.removeMember', admin.token, {
        teamId,
        userId: leaver.user.id,
      });
      assert.equal(removed.status, 200);

      const r = await trail(admin, '?limit=200');
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const entries = (r.body as TPage).data.entries;
      const nameOf = (action: string, objectType: string, objectId?: string) =>
        entries.find(
          (e) => e.action === action && e.objectType === objectType && (!objectId || e.objectId === objectId),
        )?.objectName;
      assert.equal(nameOf('team.audit', 'team', teamId), teamName);
      assert.equal(nameOf('team.role_change', 'user'), `${clinician.user.name} (${clinician.user.email})`);
      const date = /^\d{4}-\d{2}-\d{2}$/;
      const chat = nameOf('history.read', 'chat', rows.chatId) ?? '';
      assert.match(chat.replace(/^chat of /, ''), date, chat);
      const image = nameOf('image.read', 'stored_image', rows.heatmapId) ?? '';
      assert.match(image.replace(/^image of /, ''), date, image);
      const analysis = nameOf('test.probe', 'analysis', rows.analysisId) ?? '';
      assert.match(analysis.replace(/^analysis of /, ''), date, analysis);
      assert.equal(nameOf('profile.delete', 'patient_profile'), null, 'a deleted profile has no name left');
      assert.equal(nameOf('team.remove_member', 'user', leaver.user.id), leaver.user.name);

      for (const [type, id] of [
        ['team', otherTeam.id],
        ['user', stranger.user.id],
        ['analysis', foreign.id],
        ['chat', "not-a-uuid' or 1=1"],
      ] as const)
        assert.equal(nameOf('test.probe', type, id), null, `${type} not the admin's to see`);
      const text = JSON.stringify(entries);
      for (const secret of [
        otherTeam.name,
        stranger.user.name,
        stranger.user.email,
        outsider.user.email,
        leaver.user.email,
      ])
        assert.ok(!text.includes(secret), `${secret} leaked into the trail`);
      assert.ok(!text.includes('Patient'), 'no patient names');
      // Actors: a member's e-mail beside the name; one from outside the team, the name alone.
      assert.equal(entries.find((e) => e.actor.userId === reader.user.id)?.actor.email, reader.user.email);
      assert.ok(entries.filter((e) => e.actor.userId === outsider.user.id).every((e) => e.actor.email === null));
    });

    test('the hash chain still verifies with team entries among the others', async () => {
      const report = await verifyAuditChain({ db: t.deps.db });
      assert.equal(report.ok, true, `broken at ${report.brokenAt}`);
      assert.ok(report.entries > 10);
    });
  });
}
