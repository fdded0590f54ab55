import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  bootstrapInterval,
  clustersOf,
  quantile,
  resampleWeights,
  seededRandom,
} from '../../scripts/batch/stats/bootstrap-interval.js';
import { measureCalibration } from '../../scripts/batch/stats/measure-calibration.js';
import { rocPoints } from '../../scripts/batch/stats/roc-points.js';
import { auroc, aurocScorer } from '../../scripts/batch/stats/weighted-auroc.js';
import { wilsonInterval } from '../../scripts/batch/stats/wilson-interval.js';

/** The cohort evaluation's statistics against values worked out by hand (or published). */
const close = (actual: number | null | undefined, expected: number, tol = 1e-9) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) <= tol, `${actual} ≉ ${expected}`);

const items = (pos: number[], neg: number[]) => [
  ...pos.map((score, i) => ({ score, positive: true, film: i })),
  ...neg.map((score, i) => ({ score, positive: false, film: pos.length + i })),
];

describe('AUROC', () => {
  test('perfect, inverted, all tied, undefined', () => {
    assert.equal(auroc(items([0.9], [0.1])), 1);
    assert.equal(auroc(items([0.1], [0.9])), 0);
    assert.equal(auroc(items([0.5], [0.5])), 0.5);
    assert.equal(auroc(items([0.5, 0.7], [])), null);
  });

  test('ties count half: positives 0.8, 0.5, 0.5 against negatives 0.5, 0.2 win 5 of 6 pairs', () => {
    // 0.8 beats both (2); each 0.5 ties the 0.5 (½) and beats 0.2 (1): 2 + 1.5 + 1.5 = 5.
    close(auroc(items([0.8, 0.5, 0.5], [0.5, 0.2])), 5 / 6);
  });

  test('film weights count a film as often as it was drawn', () => {
    const it = items([0.8, 0.5, 0.5], [0.5, 0.2]);
    // Film 0 twice, film 1 not at all, the rest once: positives 0.8, 0.8, 0.5 against 0.5, 0.2.
    // 0.8 beats both (2, twice), 0.5 ties 0.5 and beats 0.2 (1.5): 5.5 of 6.
    close(aurocScorer(it)([2, 0, 1, 1, 1]), 5.5 / 6);
    assert.equal(aurocScorer(it)([1, 1, 1, 0, 0]), null, 'no negative drawn');
  });

  test('the ROC curve steps per distinct score and its area is the AUROC', () => {
    const points = rocPoints(items([0.8, 0.5, 0.5], [0.5, 0.2]));
    assert.deepEqual(points, [
      [0, 0],
      [0, 1 / 3],
      [0.5, 1],
      [1, 1],
    ]);
    const area = points.slice(1).reduce((a, [x, y], i) => a + ((x - points[i]![0]) * (y + points[i]![1])) / 2, 0);
    close(area, 5 / 6);
  });
});

describe('Wilson interval', () => {
  test('published values (Newcombe 1998, Stat Med 17:857, method 3)', () => {
    for (const [x, n, lo, hi] of [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ] as const) {
      const ci = wilsonInterval(x, n);
      close(ci?.[0], lo, 5e-5);
      close(ci?.[1], hi, 5e-5);
    }
    assert.equal(wilsonInterval(0, 0), null);
    assert.deepEqual(wilsonInterval(10, 10)?.[1], 1);
  });
});

describe('seeded, grouped bootstrap', () => {
  test('the same seed gives the same draws; another seed others', () => {
    const plan = { clusters: clustersOf(['a', 'b', 'c', null]), films: 4, resamples: 50, seed: 42 };
    const draw = (seed: number) => [...resampleWeights({ ...plan, seed })].map((w) => Array.from(w).join());
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
    // Pinned: the stream of seed 1, so an intervals' rerun by a later version of the tool matches too.
    const random = seededRandom(1);
    assert.deepEqual(
      [random(), random(), random()].map((v) => v.toFixed(10)),
      ['0.6270739406', '0.0027357212', '0.5274470400'],
    );
  });

  test('a patient is drawn whole: two patients give only AUROC 0, 0.75 or 1, with chances ¼, ½, ¼', () => {
    // Patient A: positive 0.9, negative 0.1 (AUROC 1 alone). Patient B: positive 0.2, negative 0.8 (AUROC 0).
    // Both drawn once: positives 0.9, 0.2 against 0.1, 0.8 win 3 of 4 pairs = 0.75.
    const films = [
      { film: 0, score: 0.9, positive: true },
      { film: 1, score: 0.1, positive: false },
      { film: 2, score: 0.2, positive: true },
      { film: 3, score: 0.8, positive: false },
    ];
    const plan = { clusters: clustersOf(['A', 'A', 'B', 'B']), films: 4, resamples: 4000, seed: 7 };
    const { draws, ci, undefinedDraws } = bootstrapInterval(plan, aurocScorer(films));
    assert.equal(undefinedDraws, 0);
    assert.deepEqual([...new Set(draws)].sort(), [0, 0.75, 1]);
    const share = (v: number) => draws.filter((d) => d === v).length / draws.length;
    assert.ok(
      Math.abs(share(0) - 0.25) < 0.03 && Math.abs(share(0.75) - 0.5) < 0.03 && Math.abs(share(1) - 0.25) < 0.03,
    );
    assert.deepEqual(ci, [0, 1]);
    // Film by film the same cohort also draws e.g. 0.5 or no negative at all: the grouping is what rules them out.
    const byFilm = bootstrapInterval({ ...plan, clusters: clustersOf([null, null, null, null]) }, aurocScorer(films));
    assert.ok(byFilm.undefinedDraws > 0 && byFilm.draws.includes(0.5));
  });

  test('percentiles interpolate linearly between order statistics', () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    close(quantile([1, 2, 3, 4], 0.025), 1.075);
    close(quantile([1, 2, 3, 4], 0.975), 3.925);
  });
});

describe('calibration', () => {
  test('ECE and Brier on four films worked by hand', () => {
    const c = measureCalibration([
      { probability: 0.05, positive: false },
      { probability: 0.15, positive: true },
      { probability: 0.15, positive: false },
      { probability: 0.95, positive: true },
    ]);
    // Bin gaps: |0.05-0| (1 film), |0.15-0.5| (2 films), |0.95-1| (1 film): (0.05 + 0.7 + 0.05) / 4.
    close(c.ece, 0.2);
    // (0.05² + 0.85² + 0.15² + 0.05²) / 4 = 0.75 / 4.
    close(c.brier, 0.1875);
    assert.deepEqual(
      c.bins.map((b) => b.n),
      [1, 2, 0, 0, 0, 0, 0, 0, 0, 1],
    );
    close(c.bins[1]?.observed, 0.5);
    assert.equal(c.bins[5]?.meanPredicted, null);
    assert.equal(measureCalibration([{ probability: 1, positive: true }]).bins[9]?.n, 1, 'p = 1 is in the last bin');
    assert.equal(measureCalibration([]).ece, null);
  });
});
