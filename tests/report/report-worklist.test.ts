import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances, studyClaims } from '../../server/src/db/schema.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { seedWorld } from '../teams/matrix/matrix-world.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

for (const backend of testBackends()) {
  describe(`signed reports on the worklist, and "Sign and next", on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend });
    });
    afterAll(async () => {
      await t.close();
    });

    test('next claims the most urgent unread study; a signed one shows "Signed by" and leaves the unread part', async () => {
      const w = await seedWorld(t);
      const now = Date.now();
      const [urgent, review, routine] = await seedStudies(
        t.deps,
        { userId: w.users.author.user.id, teamId: w.teamId },
        [
          {
            status: 'analysed',
            result: resultOf(finding('mass', 0.9, 0.5, 'positive')),
            createdAt: new Date(now - 3000),
          },
          {
            status: 'analysed',
            result: resultOf(finding('mass', 0.3, 0.2, 'possible')),
            createdAt: new Date(now - 2000),
          },
          {
            status: 'analysed',
            result: resultOf(finding('mass', 0.01, 0.5, 'negative')),
            createdAt: new Date(now - 1000),
          },
        ],
      );
      const radiologist = sessionCaller(t.deps, w.users.radiologist);
      const first = await radiologist.worklist.next({ team: w.teamId });
      assert.equal(first?.id, urgent);
      const [row] = await t.deps.db
        .select({ analysisId: dicomInstances.analysisId })
        .from(dicomInstances)
        .where(eq(dicomInstances.id, urgent!));
      const claimOf = async () =>
        (await t.deps.db.select().from(studyClaims).where(eq(studyClaims.studyId, urgent!)))[0]?.claimedBy;
      assert.equal(await claimOf(), w.users.radiologist.user.id);

      const analysisId = row!.analysisId!;
      const { revision } = await radiologist.report.get({ analysisId });
      const signed = await radiologist.report.sign({ analysisId, revision });
      assert.equal(signed.status, 'final');
      assert.equal(await claimOf(), null, 'the signature ends the claim (issue 49)');
      const all = await radiologist.worklist.list({ team: w.teamId });
      const item = all.items.find((i) => i.id === urgent);
      assert.equal(item?.report?.status, 'final');
      assert.equal(item?.report?.signedBy, w.users.radiologist.user.name);
      assert.equal(all.items.find((i) => i.id === routine)?.report, null);
      const unread = await radiologist.worklist.list({ team: w.teamId, reviewed: false });
      assert.deepEqual(
        unread.items.map((i) => i.id),
        [review, routine],
      );
      const done = await radiologist.worklist.list({ team: w.teamId, reviewed: true });
      assert.deepEqual(
        done.items.map((i) => i.id),
        [urgent],
      );

      // The admin's next skips the study the radiologist holds.
      const admin = sessionCaller(t.deps, w.users.admin);
      assert.equal((await radiologist.worklist.next({ team: w.teamId }))?.id, review);
      assert.equal((await admin.worklist.next({ team: w.teamId }))?.id, routine);
      assert.equal(await admin.worklist.next({ team: w.teamId }), null);
      const clinician = sessionCaller(t.deps, w.users.clinician);
      await assert.rejects(clinician.worklist.next({ team: w.teamId }), /radiologist or an admin/);
    });
  });
}
