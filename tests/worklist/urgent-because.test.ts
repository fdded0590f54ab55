import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { siteSettings } from '../../server/src/db/schema.js';
import { URGENT_ALSO_POSSIBLE_KEY, URGENT_FINDINGS_KEY } from '../../server/src/services/site/get-urgent-findings.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { ZWorklist } from '@contracts/schemas/worklist.js';
import { createUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { analyseFixtureFilms } from '../helpers/analyse-fixture-films.js';
import { MODEL_DIR, modelInstalled } from '../analysis/support/fixtures.js';
import { TEST_ENV } from '../history/http.js';
import { seedStudies } from './seed-studies.js';

/**
 * Issue 48 item 2: a study is Urgent from a "Likely" flag of one of the site's urgent findings only,
 * unless the site ticks "also Possible"; each Urgent row says why (`urgentBecause`, in the worklist
 * API and its contract). The results are the shipped model's on the committed fixture films.
 */
for (const backend of testBackends()) {
  describe.skipIf(!modelInstalled() && 'no model installed')(`urgency from Likely flags on ${backend}`, () => {
    let t: TestApp;
    let results: TStoredResult[] = [];
    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...TEST_ENV, MODEL_DIR } });
      results = [...(await analyseFixtureFilms(MODEL_DIR, 61)).values()];
    }, 180_000);
    afterAll(async () => t?.close());

    const setting = async (key: string, value: unknown) =>
      t.deps.db
        .insert(siteSettings)
        .values({ key, value })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value } });

    test('Urgent only from Likely flags by default, from Possible ones when the site says so; each row says why', async () => {
      const u = await createUser(t.deps);
      const flagged = (r: TStoredResult, call: 'positive' | 'possible') =>
        r.findings.filter((f) => f.label !== 'abnormal' && f.call === call).map((f) => f.label);
      const withPossible = results.filter((r) => flagged(r, 'possible').length > 0);
      assert.ok(withPossible.length > 0, 'a fixture film with a Possible flag');
      const ids = await seedStudies(
        t.deps,
        { userId: u.user.id },
        results.map((result, i) => ({
          status: 'analysed' as const,
          result,
          createdAt: new Date(Date.now() - i * 1000),
        })),
      );
      // Every finding a Possible or Likely flag names is urgent at this site.
      const urgent = [...new Set(results.flatMap((r) => [...flagged(r, 'possible'), ...flagged(r, 'positive')]))];
      await setting(URGENT_FINDINGS_KEY, urgent);
      const read = async () => {
        const list = ZWorklist.parse(await sessionCaller(t.deps, u).worklist.list({}));
        return new Map(list.items.map((i) => [i.id, i]));
      };

      await setting(URGENT_ALSO_POSSIBLE_KEY, false);
      const byDefault = await read();
      results.forEach((r, i) => {
        const row = byDefault.get(ids[i]!)!;
        const likely = flagged(r, 'positive');
        assert.equal(row.urgency === 'urgent', likely.length > 0, `film ${i}: Urgent iff a Likely urgent flag`);
        assert.deepEqual(row.urgentBecause.map((f) => f.label).sort(), [...likely].sort(), `film ${i} says why`);
        for (const f of row.urgentBecause)
          assert.equal(f.display, r.findings.find((x) => x.label === f.label)!.display, 'named as on the result');
      });
      const possibleOnly = results.findIndex(
        (r) => flagged(r, 'positive').length === 0 && flagged(r, 'possible').length,
      );
      assert.ok(possibleOnly >= 0, 'a film flagged only Possible');
      assert.equal(byDefault.get(ids[possibleOnly]!)!.urgency, 'review', 'a Possible flag alone is not Urgent');

      await setting(URGENT_ALSO_POSSIBLE_KEY, true);
      const also = await read();
      results.forEach((r, i) => {
        const row = also.get(ids[i]!)!;
        const any = [...flagged(r, 'positive'), ...flagged(r, 'possible')];
        assert.equal(row.urgency === 'urgent', any.length > 0, `film ${i}: Urgent on any urgent flag`);
        assert.deepEqual(row.urgentBecause.map((f) => f.label).sort(), [...any].sort());
      });
      // A row that is not Urgent has no reason.
      assert.ok([...also.values()].filter((i) => i.urgency !== 'urgent').every((i) => i.urgentBecause.length === 0));
    });
  });
}
