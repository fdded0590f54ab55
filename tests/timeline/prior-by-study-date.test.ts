import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { compareWithPrior } from '../../server/src/services/timeline/compare-with-prior.js';
import { comparisonHeading } from '../../server/src/services/timeline/comparison-text.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';
import { seedProfileStudies } from './seed-profile-studies.js';

/**
 * Issue 49 item 6: the prior is the study taken before this one (its stored StudyDate, the upload
 * day only without one), not the one uploaded before it, and the comparison is dated the same way.
 */
describe('the prior study is chosen and dated by its StudyDate', () => {
  let t: TestApp;
  let u: TTestUser;
  let profileId = '';
  const ids: { chatId: string; analysisId: string }[] = [];
  const result: TStoredResult = sampleResultV2();
  const uploaded = [
    new Date('2026-11-29T06:00:00Z'), // the film of 26 November, sent last among the DICOM studies
    new Date('2026-11-29T05:00:00Z'), // the film of 28 November, sent first
    new Date('2026-11-29T07:00:00Z'), // a browser upload: no StudyDate, dated by its upload day
  ];

  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps);
    const seeded = await seedProfileStudies(t.deps, u.user.id, [
      { result, createdAt: uploaded[0]!, studyDate: '20261126' },
      { result, createdAt: uploaded[1]!, studyDate: '20261128' },
      { result, createdAt: uploaded[2]! },
    ]);
    profileId = seeded.profileId;
    ids.push(...seeded.studies);
  });
  afterAll(async () => {
    await t?.close();
  });

  const compare = (i: number) =>
    compareWithPrior({
      db: t.deps.db,
      config: t.deps.config,
      userId: u.user.id,
      profileId,
      analysisId: ids[i]!.analysisId,
      createdAt: uploaded[i]!,
      result,
    });

  test('a film taken earlier but sent later is the prior of the one sent first', async () => {
    const c = await compare(1);
    assert.equal(c?.prior.analysisId, ids[0]!.analysisId);
    assert.equal(comparisonHeading(c!), 'Compared with the study of 2026-11-26');
  });

  test('the earliest film by StudyDate has no prior, though another was uploaded before it', async () => {
    assert.equal(await compare(0), null);
  });

  test('an upload without a StudyDate is dated by its upload day and compared with the newest study before it', async () => {
    const c = await compare(2);
    assert.equal(c?.prior.analysisId, ids[1]!.analysisId);
    assert.equal(comparisonHeading(c!), 'Compared with the study of 2026-11-28');
  });

  test('the timeline lists the studies in the order they were taken, each with its study date (null for the upload)', async () => {
    const { analyses } = await sessionCaller(t.deps, u).profile.timeline({ profileId });
    assert.deepEqual(
      analyses.map((e) => [e.analysis_id, e.study_date]),
      [
        [ids[0]!.analysisId, '2026-11-26'],
        [ids[1]!.analysisId, '2026-11-28'],
        [ids[2]!.analysisId, null],
      ],
    );
  });
});
