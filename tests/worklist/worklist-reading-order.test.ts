import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances, siteSettings } from '../../server/src/db/schema.js';
import { URGENT_FINDINGS_KEY } from '../../server/src/services/site/get-urgent-findings.js';
import type { TWorklistInput, TWorklistItem } from '@contracts/schemas/worklist.js';
import { radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { signAtRevision } from '../helpers/sign-report.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_ENV } from '../history/http.js';
import { seedWorld, type TWorld } from '../teams/matrix/matrix-world.js';
import { finding as f, resultOf, seedStudies } from './seed-studies.js';

/**
 * Issue 41 part 4: a worklist a radiologist reads from. Its columns come from what ingestion
 * stored (the instance's tags, the matched profile); the unread come first, most urgent, then the
 * longest waiting; reviewed and signed studies follow (or are left out with reviewed: false), and
 * keyset paging walks that order; a film uploaded into the team in the browser is on the list.
 */
for (const backend of testBackends()) {
  describe(`the reading worklist's columns, order and uploads on ${backend}`, () => {
    let t: TestApp;
    let w: TWorld;
    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      w = await seedWorld(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    const setUrgentLabels = (labels: string[]) =>
      t.deps.db
        .insert(siteSettings)
        .values({ key: URGENT_FINDINGS_KEY, value: labels })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value: labels } });
    const as = (u: TTestUser) => sessionCaller(t.deps, u);
    const list = (u: TTestUser, input: TWorklistInput = {}) => as(u).worklist.list({ team: w.teamId, ...input });
    /** Every page of `input`, `limit` rows at a time. */
    const walk = async (u: TTestUser, input: TWorklistInput, limit: number): Promise<TWorklistItem[]> => {
      const seen: TWorklistItem[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(u, { ...input, limit, cursor });
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };

    test('columns from the stored tags; unread first by urgency then oldest; done after them, hidden on request; pages walk that order', async () => {
      const now = Date.now();
      const min = 60_000;
      const author = w.users.author.user.id;
      const profile = await createProfile(t.deps, author, { teamId: w.teamId, fullName: 'Grace Hopper', age: 79 });
      const urgent = resultOf(f('pleural_effusion', 0.6, 0.08, 'positive'));
      const review = resultOf(f('edema', 0.2, 0.025, 'possible'));
      const routine = resultOf(f('edema', 0.001, 0.025, 'negative'));
      await setUrgentLabels(['pleural_effusion']);
      const [routineOld, urgentNew, reviewMid, urgentOld, toSign, toReview] = await seedStudies(
        t.deps,
        { userId: author, teamId: w.teamId },
        [
          {
            status: 'analysed',
            result: routine,
            createdAt: new Date(now - 125 * min),
            profileId: profile.id,
            tags: {
              PatientName: 'Hopper^Grace',
              PatientID: 'PID-0042',
              AccessionNumber: 'ACC-7781',
              StudyDate: '20261128',
            },
          },
          { status: 'analysed', result: urgent, createdAt: new Date(now - 5 * min) },
          { status: 'analysed', result: review, createdAt: new Date(now - 30 * min) },
          { status: 'analysed', result: urgent, createdAt: new Date(now - 60 * min) },
          { status: 'analysed', result: urgent, createdAt: new Date(now - 240 * min) },
          { status: 'analysed', result: urgent, createdAt: new Date(now - 200 * min) },
        ],
      );
      const radiologist = as(w.users.radiologist);
      // One signed, one reviewed by its claim holder: both leave the unread part.
      const [signedRow] = await t.deps.db
        .select({ analysisId: dicomInstances.analysisId })
        .from(dicomInstances)
        .where(eq(dicomInstances.id, toSign!));
      // A team study's report is signed by the reader holding its claim (issue 46 M3).
      await radiologist.worklist.claim({ id: toSign! });
      await signAtRevision(radiologist, signedRow!.analysisId!);
      await radiologist.worklist.claim({ id: toReview! });
      await radiologist.worklist.review({ id: toReview! });

      const unread = await list(w.users.clinician, { reviewed: false });
      assert.deepEqual(
        unread.items.map((i) => i.id),
        [urgentOld, urgentNew, reviewMid, routineOld],
        'urgent (oldest first), then review, then routine',
      );
      const all = await list(w.users.clinician);
      assert.deepEqual(
        all.items.map((i) => i.id),
        [urgentOld, urgentNew, reviewMid, routineOld, toSign, toReview],
        'the signed and the reviewed out of the way, in the same order',
      );
      assert.deepEqual(
        (await list(w.users.clinician, { reviewed: true })).items.map((i) => i.id),
        [toSign, toReview],
      );

      const row = all.items.find((i) => i.id === routineOld)!;
      assert.deepEqual(
        {
          patientName: row.patientName,
          patientId: row.patientId,
          accessionNumber: row.accessionNumber,
          studyDate: row.studyDate,
          source: row.source,
        },
        {
          patientName: 'Grace Hopper',
          patientId: 'PID-0042',
          accessionNumber: 'ACC-7781',
          studyDate: '2026-11-28',
          source: 'dimse',
        },
      );
      assert.equal(Date.parse(row.receivedAt), now - 125 * min, 'the waiting time counts from receipt');
      const bare = all.items.find((i) => i.id === urgentNew)!;
      assert.deepEqual([bare.patientId, bare.accessionNumber, bare.studyDate], [null, null, null]);
      assert.equal(all.items.find((i) => i.id === toSign)?.report?.signedBy, w.users.radiologist.user.name);
      assert.equal(all.items.find((i) => i.id === toReview)?.review?.name, w.users.radiologist.user.name);

      // Keyset paging walks the same order, across the unread/done boundary, one row a page.
      for (const limit of [1, 2, 4]) {
        assert.deepEqual(
          (await walk(w.users.clinician, {}, limit)).map((i) => i.id),
          all.items.map((i) => i.id),
          `pages of ${limit}`,
        );
        assert.deepEqual(
          (await walk(w.users.clinician, { reviewed: false }, limit)).map((i) => i.id),
          unread.items.map((i) => i.id),
          `unread pages of ${limit}`,
        );
      }
      // "Sign and next" takes the longest-waiting urgent study now.
      assert.equal((await as(w.users.admin).worklist.next({ team: w.teamId }))?.id, urgentOld);
      await setUrgentLabels([]);
    });

    test('a film uploaded into the team in the browser is on the team worklist (not the personal one), claimed like a network study', async () => {
      const uploader = w.users.clinician;
      const res = await postMultipart(
        t.app,
        '/api/chat/upload',
        uploadBody(await radiograph({ side: 300 }), { full_name: 'Ada Lovelace', age: 36 }, [
          { name: 'team_id', value: w.teamId },
        ]),
        uploader.token,
      );
      assert.equal(res.statusCode, 202, res.body);
      const { analysis_id: analysisId, chat_id: chatId } = (
        res.json() as { data: { analysis_id: string; chat_id: string } }
      ).data;
      const item = (await list(w.users.radiologist)).items.find((i) => i.chatId === chatId);
      assert.ok(item, 'the upload is on the team worklist');
      assert.equal(item.id, analysisId);
      assert.equal(item.source, 'upload');
      assert.equal(item.status, 'queued');
      assert.equal(item.urgency, 'pending');
      assert.equal(item.patientName, 'Ada Lovelace');
      assert.ok(Date.now() - Date.parse(item.receivedAt) < 60_000);
      assert.ok(!(await as(uploader).worklist.list({})).items.some((i) => i.chatId === chatId), 'not personal');
      await assert.rejects(as(w.users.otherTeam).worklist.list({ team: w.teamId }), /Team not found/);
      // Issue 49: claimed like a network study, by its id, in the viewer's reading bar too; its
      // uploader (a clinician) may not; claimed, next passes it over.
      assert.deepEqual(await as(w.users.radiologist).worklist.study({ analysisId }), {
        id: analysisId,
        claim: null,
        review: null,
      });
      await assert.rejects(as(uploader).worklist.claim({ id: analysisId }), /Only a radiologist or an admin/);
      const claimed = await as(w.users.radiologist).worklist.claim({ id: analysisId });
      assert.equal(claimed.claim?.userId, w.users.radiologist.user.id);
      assert.equal((await as(uploader).worklist.study({ analysisId }))?.claim?.name, w.users.radiologist.user.name);
      const next = await as(w.users.author).worklist.next({ team: w.teamId });
      assert.notEqual(next?.id, analysisId);
    });

    test("the viewer's reading bar: a team study's claim by its analysis; another team's analysis is 404", async () => {
      const [id] = await seedStudies(t.deps, { userId: w.users.author.user.id, teamId: w.teamId }, [
        { status: 'analysed', result: resultOf(f('edema', 0.2, 0.025, 'possible')), createdAt: new Date() },
      ]);
      const [row] = await t.deps.db
        .select({ analysisId: dicomInstances.analysisId })
        .from(dicomInstances)
        .where(eq(dicomInstances.id, id!));
      const analysisId = row!.analysisId!;
      assert.deepEqual(await as(w.users.clinician).worklist.study({ analysisId }), { id, claim: null, review: null });
      await as(w.users.radiologist).worklist.claim({ id: id! });
      const held = await as(w.users.clinician).worklist.study({ analysisId });
      assert.equal(held?.claim?.name, w.users.radiologist.user.name);
      await assert.rejects(as(w.users.otherTeam).worklist.study({ analysisId }), /Analysis not found/);
      const stranger = await createUser(t.deps);
      await assert.rejects(as(stranger).worklist.study({ analysisId }), /Analysis not found/);
      await as(w.users.radiologist).worklist.release({ id: id! });
    });
  });
}
