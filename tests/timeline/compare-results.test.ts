import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { changeOf, compareResults, distanceFromThreshold } from '../../server/src/services/timeline/compare-results.js';
import { comparisonLines } from '../../server/src/services/timeline/comparison-text.js';
import { loadChangeMargin } from '../../server/src/services/timeline/load-change-margin.js';
import { callOf } from '../../worker/src/pipeline/compose.js';
import { MODEL_DIR, sampleResultV2 } from '../analysis/support/fixtures.js';

// The shipped manifest's band and thresholds: the rule reuses them, the test does too.
const manifest = JSON.parse(readFileSync(`${MODEL_DIR}/manifest.json`, 'utf8')) as {
  uncertainMargin: number;
  changeMargin?: number;
  findings: { label: string; display: string; threshold: number }[];
};
// Model 5 calls with no band (uncertainMargin 0) and keeps the timeline's band as changeMargin.
const MARGIN = manifest.changeMargin ?? manifest.uncertainMargin;
// The older rule alone (no measured spread): the log-odds band around each threshold.
const LOG_ODDS_RULE = { margin: MARGIN, spreads: {} };
const PNEUMONIA = manifest.findings.find((f) => f.label === 'pneumonia')!;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** A finding at `d` log-odds from its threshold, called by the worker's own callOf. */
function at(d: number, threshold = PNEUMONIA.threshold, margin = MARGIN): TFinding {
  const probability = sigmoid(logit(threshold) + d);
  return {
    label: 'pneumonia',
    display: PNEUMONIA.display,
    probability,
    threshold,
    call: callOf(probability, threshold, margin),
  };
}

const snapshot = (result: TStoredResult) => ({
  analysisId: '00000000-0000-4000-8000-000000000001',
  chatId: '00000000-0000-4000-8000-000000000002',
  createdAt: new Date('2026-03-12T09:30:00Z'),
  result,
});

describe('the change rule', () => {
  test('the band comes from the shipped manifest', () => {
    assert.equal(loadChangeMargin(MODEL_DIR), MARGIN);
    assert.ok(MARGIN > 0);
    assert.equal(loadChangeMargin('/nonexistent'), 0);
  });

  test('threshold crossings: negative to positive is new, positive to negative is resolved', () => {
    assert.equal(at(-MARGIN - 0.1).call, 'negative');
    assert.equal(at(MARGIN + 0.1).call, 'positive');
    assert.equal(changeOf(at(-MARGIN - 0.1), at(MARGIN + 0.1), MARGIN), 'new');
    assert.equal(changeOf(at(MARGIN + 0.1), at(-MARGIN - 0.1), MARGIN), 'resolved');
  });

  test('uncertain band: a step across one edge smaller than the band is unchanged, a larger one is higher or lower', () => {
    // negative just below the band → uncertain just inside it: the call changed, the model cannot tell them apart.
    const below = at(-MARGIN - 0.01);
    const inside = at(-MARGIN + 0.05);
    assert.equal(below.call, 'negative');
    assert.equal(inside.call, 'uncertain');
    assert.equal(changeOf(below, inside, MARGIN), 'unchanged');
    // uncertain → positive by more than the margin: higher, not new (it was never called negative).
    assert.equal(changeOf(at(0), at(MARGIN + 0.2), MARGIN), 'higher');
    assert.equal(changeOf(at(MARGIN + 0.2), at(0), MARGIN), 'lower');
    // deep negative both times, but much lower now.
    assert.equal(changeOf(at(-2), at(-2 - MARGIN - 0.1), MARGIN), 'lower');
    assert.equal(changeOf(at(-2), at(-2 + MARGIN / 2), MARGIN), 'unchanged');
    assert.equal(changeOf(at(1.5), at(1.5), MARGIN), 'unchanged');
  });

  test('model version change: each probability is measured from its own threshold, and a caveat says so', () => {
    const oldT = 0.2;
    const newT = 0.6;
    // Same position against each version's cut-off: unchanged, though the probabilities differ a lot.
    const before = at(0.3, oldT);
    const now = at(0.3, newT);
    assert.ok(now.probability - before.probability > 0.3);
    assert.equal(changeOf(before, now, MARGIN), 'unchanged');
    assert.ok(Math.abs(distanceFromThreshold(before) - distanceFromThreshold(now)) < 1e-9);
    const prior = snapshot(sampleResultV2({ modelVersion: '1.0.0', findings: [before] }));
    const c = compareResults(prior, sampleResultV2({ modelVersion: '2.0.0', findings: [now] }), LOG_ODDS_RULE);
    assert.deepEqual(c.modelVersions, { previous: '1.0.0', current: '2.0.0' });
    assert.match(c.caveats.join(' '), /model version changed between the two analyses \(1\.0\.0 then 2\.0\.0\)/);
  });

  test('only shipped findings both results report are compared; CTR change and caveats', () => {
    const prior = snapshot(
      sampleResultV2({
        gate: { accepted: true, reason: null, flags: ['low_contrast'], code: null },
        anatomy: { ...sampleResultV2().anatomy!, ctr: 0.48 },
      }),
    );
    const current = sampleResultV2({ findings: sampleResultV2().findings.filter((f) => f.label !== 'covid19') });
    const c = compareResults(prior, current, LOG_ODDS_RULE);
    assert.deepEqual(
      c.findings.map((f) => f.label),
      current.findings.map((f) => f.label),
    );
    assert.ok(c.findings.every((f) => f.change === 'unchanged'));
    assert.deepEqual(c.notCompared, [{ label: 'covid19', display: 'COVID-19 pattern', reportedBy: 'previous' }]);
    // "Not assessed" candidates are never compared.
    assert.ok(!c.findings.some((f) => current.notAssessed!.some((n) => n.label === f.label)));
    assert.equal(c.ctr!.previous, 0.48);
    assert.ok(Math.abs(c.ctr!.change - (0.5634 - 0.48)) < 1e-12);
    assert.match(c.caveats.join(' '), /image checks differ \(earlier film: low contrast; this film: no flags\)/);
    assert.match(c.caveats.join(' '), /projection \(PA or AP\) is not recorded/);
    // No CTR on one film: no CTR change and no projection caveat about it.
    const noCtr = compareResults(snapshot(sampleResultV2({ anatomy: null })), current, LOG_ODDS_RULE);
    assert.equal(noCtr.ctr, null);
    assert.ok(!noCtr.caveats.some((s) => /projection/.test(s)));
  });

  test('the report section names the date, both figures, both calls and the change word', () => {
    const prior = snapshot(sampleResultV2({ findings: [at(-MARGIN - 0.5)] }));
    const c = compareResults(prior, sampleResultV2({ findings: [at(MARGIN + 0.5)] }), LOG_ODDS_RULE);
    const text = comparisonLines(c).join('\n');
    assert.match(text, /^### Compared with the study uploaded on 2026-03-12 \(no study date recorded\)/);
    const pct = (p: number) => `${(p * 100).toFixed(1)}%`;
    assert.ok(
      text.includes(
        `| ${PNEUMONIA.display} | ${pct(at(-MARGIN - 0.5).probability)} (negative) | ${pct(at(MARGIN + 0.5).probability)} (positive) | new |`,
      ),
      text,
    );
    assert.match(text, /Cardiothoracic ratio 0\.56 → 0\.56 \(±0\.00\)/);
  });
});
