import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, inArray, isNull } from 'drizzle-orm';
import { analyses, dicomInstances, siteSettings } from '../../server/src/db/schema.js';
import { urgencyOf } from '../../server/src/services/dicom-node/list-worklist.js';
import { fillMissingTriage } from '../../server/src/services/dicom-node/fill-missing-triage.js';
import { readUrgentLabels, URGENT_FINDINGS_KEY } from '../../server/src/services/site/get-urgent-findings.js';
import type { TWorklistInput, TWorklistItem } from '@contracts/schemas/worklist.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_ENV } from '../history/http.js';
import { finding as f, resultOf, seedStudies, type TSeedStudy } from './seed-studies.js';

const RANK = ['urgent', 'review', 'routine', 'pending', 'none'];

/**
 * Issue 36 S5: the worklist filters, ranks and pages in SQL. Before, it read the newest 1,000
 * rows and filtered them in JS, so one 2,005-slice CT series hid every older urgent or sent study.
 */
for (const backend of testBackends()) {
  describe(`worklist filters, ranks and pages in SQL on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
    });
    afterAll(async () => {
      await t?.close();
    });

    const list = (u: TTestUser, input: TWorklistInput) => sessionCaller(t.deps, u).worklist.list(input);
    const setUrgentLabels = async (labels: string[]) => {
      await t.deps.db
        .insert(siteSettings)
        .values({ key: URGENT_FINDINGS_KEY, value: labels })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value: labels } });
    };

    test('after a 2,005-slice CT series, the urgent and sent filters still find the older studies; paging walks every row once', async () => {
      const u = await createUser(t.deps);
      const before = Date.now() - 3_600_000;
      // Urgent only for a flagged finding the site marked urgent (issue 42), one the shipped model offers.
      await setUrgentLabels(['pleural_effusion']);
      const positive = resultOf(f('pleural_effusion', 0.71, 0.08, 'positive'), f('edema', 0.01, 0.025, 'negative'));
      const calm = resultOf(f('pleural_effusion', 0.01, 0.08, 'negative'));
      const older: TSeedStudy[] = [
        ...[0, 1, 2].map((i) => ({
          status: 'analysed' as const,
          result: positive,
          createdAt: new Date(before - i * 1000),
        })),
        ...[3, 4].map((i) => ({ status: 'sent' as const, result: calm, createdAt: new Date(before - i * 1000) })),
      ];
      const [u1, u2, u3, s1, s2] = await seedStudies(t.deps, { userId: u.user.id }, older);
      const series = '1.2.826.0.1.3680043.99.2005';
      const ct = await seedStudies(
        t.deps,
        { userId: u.user.id },
        Array.from({ length: 2005 }, (_, i) => ({
          status: 'skipped' as const,
          modality: 'CT',
          seriesInstanceUid: series,
          createdAt: new Date(before + 60_000 + i),
        })),
      );
      assert.equal(ct.length, 2005);

      assert.deepEqual(
        (await list(u, { urgencies: ['urgent'] })).items.map((i) => i.id),
        // Issue 41: within an urgency the longest waiting first.
        [u3, u2, u1],
      );
      const sent = await list(u, { statuses: ['sent'] });
      assert.deepEqual(
        sent.items.map((i) => i.id),
        [s2, s1],
      );
      assert.equal(sent.nextCursor, null);
      const first = await list(u, { limit: 4 });
      assert.deepEqual(
        first.items.map((i) => i.urgency),
        ['urgent', 'urgent', 'urgent', 'routine'],
      );

      // Every row once, in the worklist's order, across pages of 300.
      const seen: TWorklistItem[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(u, { limit: 300, cursor });
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      assert.equal(pages, 7);
      const ids = seen.map((i) => i.id);
      assert.equal(new Set(ids).size, ids.length, 'no row twice');
      assert.deepEqual(new Set(ids), new Set([u1, u2, u3, s1, s2, ...ct]));
      for (let i = 1; i < seen.length; i++)
        assert.ok(
          RANK.indexOf(seen[i - 1]!.urgency) <= RANK.indexOf(seen[i]!.urgency),
          `${seen[i - 1]!.urgency} before ${seen[i]!.urgency}`,
        );
      // Ties (the whole series is 'none') walk oldest first.
      const ctSeen = seen.filter((i) => i.urgency === 'none').map((i) => i.receivedAt);
      assert.deepEqual(ctSeen, [...ctSeen].sort());

      // A filtered walk pages too: the series, 50 at a time, each once.
      const skipped = new Set<string>();
      cursor = null;
      do {
        const page = await list(u, { statuses: ['skipped'], limit: 500, cursor });
        for (const i of page.items) skipped.add(i.id);
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(skipped.size, 2005);
    });

    test("SQL's urgency, score and lead agree with urgencyOf, for rows stored before the triage columns once db:fill-triage has run; the read writes nothing; the site's choice applies at once", async () => {
      const u = await createUser(t.deps);
      const results = [
        resultOf(
          f('edema', 0.118, 0.025, 'possible'),
          f('cardiomegaly', 0.81, 0.75, 'positive'),
          f('abnormal', 0.93, 0.5, 'positive'),
        ),
        resultOf(f('edema', 0.001, 0.025, 'negative'), f('pneumonia', 0.02, 0.5, 'negative')),
        resultOf(f('pneumonia', 0.45, 0.5, 'uncertain')),
        resultOf(f('pneumothorax', 0.2, 0.08, 'possible'), f('edema', 0.01, 0.025, 'negative')),
        resultOf(f('pleural_effusion', 0.7, 0.3, 'positive')),
        resultOf(f('cardiomegaly', 0.2, 0.1, 'possible'), f('edema', 0.01, 0.025, 'negative')),
        resultOf(f('edema', 0.118, 0.025, 'positive')), // stored before 'possible': reads possible
        resultOf(f('abnormal', 0.66, 0.5, 'positive')), // only the summary called: it leads
        {
          ...resultOf(f('pneumonia', 0.9, 0.5, 'positive')),
          gate: { accepted: false, reason: 'Not a chest film', flags: [] },
        },
        { garbage: true },
      ];
      const statuses = ['analysed', 'sent', 'failed'] as const;
      const studies: TSeedStudy[] = [];
      let n = 0;
      for (const result of results)
        for (const status of statuses)
          for (const withTriage of [true, false])
            studies.push({ status, result, withTriage, createdAt: new Date(Date.now() - 1000 * n++) });
      studies.push({ status: 'queued', createdAt: new Date() }, { status: 'skipped', createdAt: new Date() });
      const ids = await seedStudies(t.deps, { userId: u.user.id }, studies);
      const byId = new Map(ids.map((id, i) => [id, studies[i]!]));
      const analysisIds = (
        await t.deps.db
          .select({ a: dicomInstances.analysisId })
          .from(dicomInstances)
          .where(inArray(dicomInstances.id, ids))
      ).flatMap((r) => (r.a ? [r.a] : []));
      assert.equal(analysisIds.length, results.length * statuses.length * 2);
      const untriaged = () =>
        t.deps.db
          .select({ id: analyses.id })
          .from(analyses)
          .where(and(inArray(analyses.id, analysisIds), isNull(analyses.triageAssessed)));
      assert.equal((await untriaged()).length, results.length * statuses.length, 'half stored as before 0011');

      // The read path only reads: a row without its triage reads pending (none when skipped or
      // failed) and keeps lacking it until the one-off command fills it in.
      const untriagedIds = new Set(studies.flatMap((s, i) => (s.withTriage === false ? [ids[i]!] : [])));
      for (const item of (await list(u, { limit: 500 })).items.filter((i) => untriagedIds.has(i.id)))
        assert.deepEqual(
          { urgency: item.urgency, score: item.score, lead: item.lead },
          { urgency: item.status === 'failed' ? 'none' : 'pending', score: null, lead: null },
        );
      assert.equal((await untriaged()).length, results.length * statuses.length, 'the read wrote nothing');
      assert.equal(await fillMissingTriage({ db: t.deps.db }), results.length * statuses.length);
      assert.equal((await untriaged()).length, 0);
      assert.equal(await fillMissingTriage({ db: t.deps.db }), 0, 'a second run finds nothing to do');

      // Labels the shipped model offers (models/cxr): a stored label it does not offer is dropped on read.
      for (const labels of [['cardiomegaly', 'pleural_effusion'], ['pneumothorax', 'edema'], []]) {
        await setUrgentLabels(labels);
        const { items } = await list(u, { limit: 500 });
        assert.equal(items.length, studies.length);
        for (const item of items) {
          const s = byId.get(item.id)!;
          const expected = urgencyOf(s.result ?? null, s.status, (await readUrgentLabels(t.deps)).labels);
          assert.deepEqual(
            { urgency: item.urgency, score: item.score, lead: item.lead },
            expected,
            `${JSON.stringify(s)} with ${labels.join(',')}`,
          );
        }
      }
      await setUrgentLabels([]);
    });

    test('a bad cursor is a 400 with a clear message', async () => {
      const u = await createUser(t.deps);
      await assert.rejects(list(u, { cursor: 'not-a-cursor' }), /Invalid cursor/);
    });
  });
}
