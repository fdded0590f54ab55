import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { callOf as siteCallOf, withSiteThresholds } from '../../server/src/services/site/apply-site-thresholds.js';
import { buildProposal } from '../../server/src/services/site/build-proposal.js';
import {
  operatingPoint,
  thresholdForSensitivity,
  wilson,
  youdenThreshold,
  type TCase,
} from '../../server/src/services/site/calibration-math.js';
import { callOf as workerCallOf } from '../../worker/src/pipeline/compose.js';

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);
const cases = (present: number[], absent: number[]): TCase[] => [
  ...present.map((score) => ({ score, present: true })),
  ...absent.map((score) => ({ score, present: false })),
];

describe('site calibration statistics', () => {
  test('Wilson 95 % interval against hand-computed values', () => {
    // 8/10: centre (0.8 + 1.9208/10)/1.38415 = 0.71671, half 1.95996/1.38415 * sqrt(0.016 + 0.00960) = 0.22657.
    const [lo, hi] = wilson(8, 10);
    close(lo, 0.49016);
    close(hi, 0.94329);
    const [lo0, hi0] = wilson(0, 20);
    close(lo0, 0);
    close(hi0, 0.16113);
    assert.deepEqual(wilson(0, 0), [0, 1]);
  });

  test('Youden picks the threshold with the best sensitivity + specificity; a target sensitivity the highest that keeps it', () => {
    const c = cases([0.9, 0.8, 0.7, 0.35], [0.6, 0.3, 0.2, 0.1]);
    const y = youdenThreshold(c);
    // At 0.7: sens 3/4, spec 4/4 (J 0.75); at 0.35: sens 4/4, spec 3/4 (J 0.75): a tie keeps the lower, more sensitive threshold.
    assert.equal(y.threshold, 0.35);
    assert.equal(y.sensitivity, 1);
    assert.equal(y.specificity, 0.75);
    const s = thresholdForSensitivity(c, 0.75);
    assert.equal(s.threshold, 0.7);
    assert.deepEqual([s.tp, s.fn, s.tn, s.fp], [3, 1, 4, 0]);
    assert.deepEqual(operatingPoint(c, 0.5), {
      threshold: 0.5,
      tp: 3,
      fn: 1,
      tn: 3,
      fp: 1,
      sensitivity: 0.75,
      specificity: 0.75,
    });
  });

  test('a finding below the minimum count is skipped with its counts; enough cases give intervals and the default beside', () => {
    const many = cases(
      Array.from({ length: 15 }, (_, i) => 0.5 + i / 40),
      Array.from({ length: 20 }, (_, i) => i / 50),
    );
    const few = cases([0.9, 0.8], [0.1, 0.2, 0.3]);
    const out = buildProposal(
      [
        { label: 'pneumonia', display: 'Pneumonia', threshold: 0.38 },
        { label: 'covid19', display: 'COVID-19', threshold: 0.27 },
      ],
      new Map([
        ['pneumonia', many],
        ['covid19', few],
      ]),
      { kind: 'youden' },
      30,
    );
    assert.equal(out.findings.length, 1);
    const p = out.findings[0]!;
    assert.equal(p.cases, 35);
    assert.equal(p.threshold, 0.5);
    assert.equal(p.sensitivity, 1);
    assert.equal(p.specificity, 1);
    close(p.sensitivityCi95[0], wilson(15, 15)[0]);
    assert.equal(p.defaultThreshold, 0.38);
    assert.deepEqual(
      out.skipped.map((s) => [s.finding, s.cases, s.positives]),
      [['covid19', 5, 2]],
    );
  });

  test("the server's call rule is the worker's, and site thresholds re-decide calls and the top finding", () => {
    for (const [p, t, m] of [
      [0.3, 0.31, 0.7],
      [0.5, 0.31, 0.7],
      [0.2, 0.38, 0.7],
      [0.39, 0.38, 0],
      [0.45, 0.38, 0.7],
    ] as const) {
      assert.equal(siteCallOf(p, t, m), workerCallOf(p, t, m), `${p} ${t} ${m}`);
    }
    const result = {
      modelVersion: '2.0.0',
      modelName: 'm',
      gate: { accepted: true, reason: null, flags: [] },
      anatomy: null,
      heatmaps: [],
      image: { width: 1, height: 1 },
      timingsMs: {},
      findings: [
        { label: 'pneumonia', display: 'Pneumonia', probability: 0.3, threshold: 0.38, call: 'negative' as const },
      ],
      topFinding: null,
    };
    const model = {
      modelVersion: '2.0.0',
      sha256: 'x',
      uncertainMargin: 0,
      findings: [{ label: 'pneumonia', display: 'Pneumonia', threshold: 0.38 }],
    };
    const out = withSiteThresholds(result, model, new Map([['pneumonia', 0.25]]));
    assert.deepEqual(out.findings[0], {
      label: 'pneumonia',
      display: 'Pneumonia',
      probability: 0.3,
      threshold: 0.25,
      modelThreshold: 0.38,
      // flagged at the site's threshold, but a calibrated 30 % is not "likely"
      call: 'possible',
    });
    assert.equal(out.topFinding, 'pneumonia', 'a possible finding is a called one');
    const likely = withSiteThresholds(
      { ...result, findings: [{ ...result.findings[0]!, probability: 0.6 }] },
      model,
      new Map([['pneumonia', 0.25]]),
    );
    assert.equal(likely.findings[0]?.call, 'positive');
  });
});
