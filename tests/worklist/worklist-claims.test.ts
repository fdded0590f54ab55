import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, studyClaims, teamMembers } from '../../server/src/db/schema.js';
import { WORKLIST_MESSAGES, type TWorklist, type TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends, uniqueSuffix } from '../helpers/test-config.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';
import { finding as f, resultOf, seedStudies } from './seed-studies.js';

/**
 * Issue 32 part 3: a team's radiologists claim studies ("being read by Dr X"), release them (or
 * an admin does; a claim past the timeout is free without any timer) and mark them reviewed.
 * Access is the one rule: a clinician is refused (403), another team's member sees nothing (404).
 */
for (const backend of testBackends()) {
  describe(`worklist claims and review on ${backend}`, () => {
    let t: TestApp;
    let admin: TTestUser;
    let ada: TTestUser;
    let bo: TTestUser;
    let clinician: TTestUser;
    let stranger: TTestUser;
    let teamId: string;
    let studies: string[];
    let personal: string;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...TEST_ENV, WORKLIST_CLAIM_TIMEOUT_MINUTES: '30' } });
      const named = (name: string) => createUser(t.deps, { name: `${name} ${uniqueSuffix()}` });
      const made = await Promise.all(['Dr Admin', 'Dr Ada', 'Dr Bo', 'Cli', 'Str'].map(named));
      [admin, ada, bo, clinician, stranger] = made as [TTestUser, TTestUser, TTestUser, TTestUser, TTestUser];
      teamId = (
        await createTeam(t.deps, {
          [admin.user.id]: 'admin',
          [ada.user.id]: 'radiologist',
          [bo.user.id]: 'radiologist',
          [clinician.user.id]: 'clinician',
        })
      ).id;
      await createTeam(t.deps, { [stranger.user.id]: 'radiologist' });
      const now = Date.now();
      const positive = resultOf(f('pneumothorax', 0.7, 0.08, 'positive'));
      studies = await seedStudies(
        t.deps,
        // Made by the clinician (their STOW key): being its author gives no right to claim it.
        { userId: clinician.user.id, teamId },
        [0, 1, 2, 3].map((i) => ({
          status: 'analysed' as const,
          result: positive,
          createdAt: new Date(now - i * 1000),
        })),
      );
      [personal] = (await seedStudies(t.deps, { userId: ada.user.id }, [
        { status: 'analysed', createdAt: new Date(now) },
      ])) as [string];
    });
    afterAll(async () => {
      await t?.close();
    });

    const call = async (who: TTestUser | null, proc: string, input: unknown) => {
      const r = await trpc(t.app, 'mutation', `worklist.${proc}`, who?.token ?? null, input);
      return { status: r.status, data: r.data as TWorklistStudyState, message: r.error?.message };
    };
    const list = async (who: TTestUser, input: Record<string, unknown> = {}) => {
      const r = await trpc(t.app, 'query', 'worklist.list', who.token, { team: teamId, ...input });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.data as TWorklist;
    };
    const itemOf = async (who: TTestUser, id: string) => (await list(who)).items.find((i) => i.id === id)!;

    test('a radiologist claims a study; the worklist shows who reads it; another claim is 409 naming them', async () => {
      const [s] = studies as [string];
      const claimed = await call(ada, 'claim', { id: s });
      assert.equal(claimed.status, 200, claimed.message);
      assert.equal(claimed.data.claim?.userId, ada.user.id);
      assert.equal(claimed.data.claim?.name, ada.user.name);
      for (const member of [admin, bo, clinician]) assert.equal((await itemOf(member, s)).claim?.name, ada.user.name);

      const taken = await call(bo, 'claim', { id: s });
      assert.equal(taken.status, 409);
      assert.equal(taken.message, `Being read by ${ada.user.name}`);
      // Claiming one's own study again is fine (it restarts the clock).
      assert.equal((await call(ada, 'claim', { id: s })).status, 200);
      assert.equal((await itemOf(bo, s)).claim?.userId, ada.user.id, 'still Ada');
    });

    test('a clinician may neither claim nor review (403, a clear message); another team, a bad id and no account are 404/401', async () => {
      const [, s] = studies as [string, string];
      for (const proc of ['claim', 'review', 'release']) {
        const r = await call(clinician, proc, { id: s });
        assert.equal(r.status, 403, proc);
        assert.equal(r.message, WORKLIST_MESSAGES.readersOnly);
        const other = await call(stranger, proc, { id: s });
        assert.equal(other.status, 404, proc);
        assert.equal(other.message, WORKLIST_MESSAGES.notFound);
        for (const id of [randomUUID(), 'not-a-uuid']) assert.equal((await call(ada, proc, { id })).status, 404, id);
        assert.equal((await call(null, proc, { id: s })).status, 401);
      }
      const rows = await t.deps.db.select().from(studyClaims).where(eq(studyClaims.studyId, s));
      assert.deepEqual(rows, [], 'nothing changed: no claim or review row');
      const refused = await t.deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(and(eq(auditLog.actorUserId, stranger.user.id), eq(auditLog.action, 'worklist.claim')));
      assert.equal(refused[0]?.n, 1, "another team's probe is audited");
    });

    test('release: the holder or a team admin; another radiologist is refused; releasing a free study changes nothing', async () => {
      const [, , s] = studies as [string, string, string];
      assert.equal((await call(bo, 'claim', { id: s })).status, 200);
      const notYours = await call(ada, 'release', { id: s });
      assert.equal(notYours.status, 403);
      assert.equal(notYours.message, WORKLIST_MESSAGES.releaseNotYours);
      const byAdmin = await call(admin, 'release', { id: s });
      assert.equal(byAdmin.status, 200);
      assert.equal(byAdmin.data.claim, null);
      assert.equal((await call(ada, 'release', { id: s })).status, 200, 'free: nothing to do');
      assert.equal((await call(ada, 'claim', { id: s })).status, 200);
      assert.equal((await call(ada, 'release', { id: s })).data.claim, null, 'the holder releases their own');
    });

    test('a claim older than the timeout is free: not shown, unclaimed, and another reader may take it', async () => {
      const [, , , s] = studies as [string, string, string, string];
      assert.equal((await call(ada, 'claim', { id: s })).status, 200);
      assert.ok((await list(ada, { reader: 'mine' })).items.some((i) => i.id === s));
      assert.ok(!(await list(ada, { reader: 'unclaimed' })).items.some((i) => i.id === s));
      await t.deps.db
        .update(studyClaims)
        .set({ claimedAt: sql`now() - interval '31 minutes'` })
        .where(eq(studyClaims.studyId, s));
      assert.equal((await itemOf(bo, s)).claim, null);
      assert.ok(!(await list(ada, { reader: 'mine' })).items.some((i) => i.id === s));
      assert.ok((await list(bo, { reader: 'unclaimed' })).items.some((i) => i.id === s));
      const taken = await call(bo, 'claim', { id: s });
      assert.equal(taken.status, 200);
      assert.equal(taken.data.claim?.userId, bo.user.id);
      assert.equal((await call(bo, 'release', { id: s })).status, 200);
    });

    test('a claim by a member who left the team is free at once', async () => {
      const [, , , s] = studies as [string, string, string, string];
      const cy = await createUser(t.deps, { name: `Dr Cy ${uniqueSuffix()}` });
      await t.deps.db.insert(teamMembers).values({ teamId, userId: cy.user.id, role: 'radiologist' });
      assert.equal((await call(cy, 'claim', { id: s })).status, 200);
      assert.equal((await itemOf(bo, s)).claim?.userId, cy.user.id);
      await t.deps.db
        .delete(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, cy.user.id)));
      assert.equal((await itemOf(bo, s)).claim, null);
      assert.equal((await call(bo, 'claim', { id: s })).data.claim?.userId, bo.user.id);
      assert.equal((await call(bo, 'release', { id: s })).status, 200);
    });

    test('the reader filter: mine, unclaimed, anyone', async () => {
      const [a, b] = studies as [string, string];
      await call(ada, 'claim', { id: a });
      await call(bo, 'claim', { id: b });
      const ids = async (who: TTestUser, reader: string) => (await list(who, { reader })).items.map((i) => i.id).sort();
      assert.deepEqual(await ids(ada, 'mine'), [a]);
      assert.deepEqual(await ids(bo, 'mine'), [b]);
      assert.deepEqual(await ids(admin, 'mine'), []);
      assert.deepEqual(await ids(admin, 'unclaimed'), studies.filter((s) => s !== a && s !== b).sort());
      assert.deepEqual(await ids(clinician, 'anyone'), [...studies].sort());
      await call(ada, 'release', { id: a });
      await call(bo, 'release', { id: b });
    });

    test("review: the claim holder's alone (unclaimed: 409 claim first); marks who and when, ends the claim, filters; the mark can be taken back", async () => {
      const [a, b] = studies as [string, string];
      // Issue 41: "Mark reviewed" is for the reader holding the claim; unclaimed is refused in words.
      const unclaimed = await call(ada, 'review', { id: a });
      assert.equal(unclaimed.status, 409);
      assert.equal(unclaimed.message, WORKLIST_MESSAGES.claimFirst);
      assert.equal(
        (await t.deps.db.select().from(studyClaims).where(eq(studyClaims.studyId, a)))[0]?.reviewedBy ?? null,
        null,
      );
      await call(ada, 'claim', { id: a });
      const held = await call(bo, 'review', { id: a });
      assert.equal(held.status, 409);
      assert.equal(held.message, `Being read by ${ada.user.name}`);
      const done = await call(ada, 'review', { id: a });
      assert.equal(done.status, 200, done.message);
      assert.equal(done.data.review?.userId, ada.user.id);
      assert.equal(done.data.claim, null, 'the claim ends with the review');
      const item = await itemOf(clinician, a);
      assert.equal(item.review?.name, ada.user.name);
      assert.ok(item.review?.at);
      assert.deepEqual(
        (await list(admin, { reviewed: true })).items.map((i) => i.id),
        [a],
      );
      assert.ok(!(await list(admin, { reviewed: false })).items.some((i) => i.id === a));
      // An admin reviews a study they claim; the admin's rank does not skip the claim.
      assert.equal((await call(admin, 'review', { id: b })).status, 409);
      assert.equal((await call(admin, 'claim', { id: b })).status, 200);
      assert.equal((await call(admin, 'review', { id: b })).data.review?.userId, admin.user.id);
      const undone = await call(admin, 'review', { id: b, reviewed: false });
      assert.equal(undone.data.review, null);
      await call(ada, 'review', { id: a, reviewed: false });
    });

    test('a personal study: its owner marks it reviewed; claims are for teams (400); anyone else gets 404', async () => {
      const claim = await call(ada, 'claim', { id: personal });
      assert.equal(claim.status, 400);
      assert.equal(claim.message, WORKLIST_MESSAGES.personalClaim);
      const reviewed = await call(ada, 'review', { id: personal });
      assert.equal(reviewed.status, 200);
      assert.equal(reviewed.data.review?.userId, ada.user.id);
      const own = (await trpc(t.app, 'query', 'worklist.list', ada.token, {})).data as TWorklist;
      assert.equal(own.items.find((i) => i.id === personal)?.review?.name, ada.user.name);
      for (const other of [admin, bo]) assert.equal((await call(other, 'review', { id: personal })).status, 404);
    });

    test('REST: /api/worklist lists with filters, claims (409 names the reader), releases and reviews', async () => {
      const [, , s] = studies as [string, string, string];
      const claimed = await rest(t.app, 'POST', `/api/worklist/${s}/claim`, bo.token);
      assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
      assert.equal((claimed.body as { data: TWorklistStudyState }).data.claim?.userId, bo.user.id);
      const taken = await rest(t.app, 'POST', `/api/worklist/${s}/claim`, ada.token);
      assert.equal(taken.status, 409);
      assert.deepEqual(taken.body, { success: false, code: 'CONFLICT', message: `Being read by ${bo.user.name}` });
      const mine = await rest(
        t.app,
        'GET',
        // Review: a flagged finding the site did not make urgent (issue 42: Urgent only for the site's own).
        `/api/worklist?team=${teamId}&reader=mine&status=analysed,sent&urgency=review`,
        bo.token,
      );
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      assert.deepEqual(
        (mine.body as { data: TWorklist }).data.items.map((i) => i.id),
        [s],
      );
      assert.equal((await rest(t.app, 'GET', `/api/worklist?status=bogus`, bo.token)).status, 400);
      assert.equal((await rest(t.app, 'GET', `/api/worklist?team=${teamId}`, stranger.token)).status, 404);
      assert.equal((await rest(t.app, 'POST', `/api/worklist/${s}/claim`, clinician.token)).status, 403);
      assert.equal((await rest(t.app, 'POST', `/api/worklist/${s}/claim`, stranger.token)).status, 404);
      assert.equal((await rest(t.app, 'POST', `/api/worklist/${s}/claim`, null)).status, 401);
      const released = await rest(t.app, 'DELETE', `/api/worklist/${s}/claim`, bo.token);
      assert.equal(released.status, 200);
      assert.equal((released.body as { data: TWorklistStudyState }).data.claim, null);
      const unclaimed = await rest(t.app, 'POST', `/api/worklist/${s}/review`, ada.token, {});
      assert.deepEqual(unclaimed.body, { success: false, code: 'CONFLICT', message: WORKLIST_MESSAGES.claimFirst });
      assert.equal((await rest(t.app, 'POST', `/api/worklist/${s}/claim`, ada.token)).status, 200);
      const reviewed = await rest(t.app, 'POST', `/api/worklist/${s}/review`, ada.token, {});
      assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
      assert.equal((reviewed.body as { data: TWorklistStudyState }).data.review?.userId, ada.user.id);
      const undone = await rest(t.app, 'POST', `/api/worklist/${s}/review`, ada.token, { reviewed: false });
      assert.equal((undone.body as { data: TWorklistStudyState }).data.review, null);
    });
  });
}

describe('the claim timeout setting', () => {
  test('defaults to 30 minutes; a typo or an out-of-range value stops the boot', () => {
    assert.equal(loadConfig({}).WORKLIST_CLAIM_TIMEOUT_MINUTES, 30);
    assert.equal(loadConfig({ WORKLIST_CLAIM_TIMEOUT_MINUTES: '45' }).WORKLIST_CLAIM_TIMEOUT_MINUTES, 45);
    for (const bad of ['0', 'soon', '1441', '2.5'])
      assert.throws(
        () => loadConfig({ WORKLIST_CLAIM_TIMEOUT_MINUTES: bad }),
        /Invalid configuration:\n {2}WORKLIST_CLAIM_TIMEOUT_MINUTES/,
        bad,
      );
  });
});
