import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, test } from 'vitest';
import { callAt, likelyFrom } from '@contracts/finding-call.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { withSiteThresholds } from '../../server/src/services/site/apply-site-thresholds.js';
import { readModelIdentity } from '../../server/src/services/site/read-model-identity.js';
import { analyseFixtureFilms } from '../helpers/analyse-fixture-films.js';
import { MODEL_DIR, modelInstalled } from '../analysis/support/fixtures.js';

/**
 * Issue 48 item 2: "Likely" means likely. Each adult finding the shipped model shows carries a
 * "Likely" point chosen for precision out of fold (models/cxr/likely-points.json, written by
 * cxr_train.model5.likely), never below 50 % nor below its operating point; a flag at or above the
 * operating point and below it reads "Possible". Checked on the real model's results for the
 * committed fixture films, and through a site's own operating points.
 */
interface TLikelyPoints {
  findings: Record<
    string,
    {
      threshold: number;
      likelyThreshold: number;
      targetMet: boolean;
      likelyOutOfFold: { flagged: number; truePositives: number; ppv: number | null };
    }
  >;
}
interface TManifestFinding {
  label: string;
  threshold: number;
  likelyThreshold?: number;
  summary?: boolean;
  ageGroup?: string;
}

describe.skipIf(!modelInstalled() && 'no model installed')('the Likely / Possible split (issue 48)', () => {
  const manifest = JSON.parse(readFileSync(join(MODEL_DIR, 'manifest.json'), 'utf8')) as {
    findings: TManifestFinding[];
  };
  const points = JSON.parse(readFileSync('models/cxr/likely-points.json', 'utf8')) as TLikelyPoints;
  let results: TStoredResult[] = [];
  beforeAll(async () => {
    results = [...(await analyseFixtureFilms(MODEL_DIR, 61)).values()];
  }, 120_000);

  test('every adult finding has its Likely point from the out-of-fold choice, at or above 50 % and its operating point', () => {
    const adult = manifest.findings.filter((f) => !f.summary && f.ageGroup !== 'pediatric');
    assert.ok(adult.length >= 8, 'the adult findings model 5 shows');
    for (const f of adult) {
      const chosen = points.findings[f.label];
      assert.ok(chosen, `${f.label} in likely-points.json`);
      assert.equal(f.likelyThreshold, chosen.likelyThreshold, `${f.label}: the manifest ships the chosen point`);
      assert.ok(f.likelyThreshold! >= Math.max(0.5, f.threshold), f.label);
      assert.equal(chosen.threshold, f.threshold, `${f.label}: chosen beside the shipped operating point`);
      const oof = chosen.likelyOutOfFold;
      if (oof.flagged > 0) assert.equal(oof.ppv, oof.truePositives / oof.flagged);
    }
  });

  test('on real films each flag reads "Likely" from its Likely point and "Possible" below it', () => {
    let possible = 0;
    for (const r of results)
      for (const f of r.findings) {
        const m = manifest.findings.find((x) => x.label === f.label)!;
        assert.equal(f.likelyThreshold, m.likelyThreshold, `${f.label} carries its Likely point`);
        const likely = likelyFrom(f.likelyThreshold);
        const expected = f.probability < f.threshold ? 'negative' : f.probability >= likely ? 'positive' : 'possible';
        assert.equal(f.call, expected, `${f.label} at ${f.probability}`);
        if (f.call === 'possible') possible++;
      }
    assert.ok(possible > 0, 'some fixture film has a Possible flag');
  });

  test("a site's own operating point moves Possible, never Likely", () => {
    const r = results.find((x) => x.findings.some((f) => f.likelyThreshold !== undefined && f.label !== 'abnormal'))!;
    const f = r.findings.find((x) => x.likelyThreshold !== undefined && x.label !== 'abnormal')!;
    const lowered = withSiteThresholds(r, readModelIdentity(MODEL_DIR)!, new Map([[f.label, 0.001]]));
    const g = lowered.findings.find((x) => x.label === f.label)!;
    assert.equal(g.call, g.probability >= likelyFrom(f.likelyThreshold) ? 'positive' : 'possible');
    // A probability between 50 % and a higher Likely point is Possible, not Likely.
    assert.equal(callAt(0.6, 0.2, 0, 0.7), 'possible');
    assert.equal(callAt(0.7, 0.2, 0, 0.7), 'positive');
    assert.equal(callAt(0.45, 0.2, 0, 0.3), 'possible', 'never Likely below 50 %');
  });
});
