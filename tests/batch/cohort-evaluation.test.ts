import assert from 'node:assert/strict';
import sharp from 'sharp';
import { describe, test } from 'vitest';
import { ZBatchSummary } from '@contracts/schemas/batch-summary.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOtherRun, type TOtherRun } from '../../scripts/batch/cohort/compare-runs.js';
import { CsvInputError } from '../../scripts/batch/csv.js';
import { evaluateCohort } from '../../scripts/batch/cohort/evaluate-cohort.js';
import { renderPlots } from '../../scripts/batch/cohort/render-plots.js';
import { writeSummaryMarkdown } from '../../scripts/batch/cohort/write-summary-markdown.js';
import { resultsCsv, type TResultRow } from '../../scripts/batch/results.js';
import type { TOutcome } from '../../scripts/batch/state-store.js';

/**
 * The cohort evaluation on seven analysed films and one refusal, every figure worked out by hand
 * (the comments show how). Pneumonia's threshold is 0.5 and COVID-19's 0.4.
 */
function film(
  n: number,
  truth: { label?: string; findings?: string },
  p: { pneumonia: number; covid19: number } | null,
  patientId: string | null,
  group: string,
  call = 'positive',
): TResultRow {
  const outcome: TOutcome = {
    sha256: `s${n}`,
    status: p ? 'completed' : 'refused',
    chatId: null,
    accepted: p !== null,
    gateReason: null,
    modelVersion: p ? '3.0.0' : null,
    topFinding: null,
    findings: p
      ? [
          { label: 'pneumonia', probability: p.pneumonia, threshold: 0.5, call },
          { label: 'covid19', probability: p.covid19, threshold: 0.4, call },
        ]
      : [],
    error: null,
  };
  return {
    input: {
      file: `f${n}.jpg`,
      absPath: `/x/f${n}.jpg`,
      label: truth.label ?? null,
      findings: truth.findings ?? null,
      patientId,
      groups: { group },
      patient: {},
      where: `CSV line ${n + 1}`,
    },
    outcome,
  };
}

const withNotAssessed = (row: TResultRow, notAssessed: TOutcome['notAssessed']): TResultRow => ({
  ...row,
  outcome: { ...row.outcome, notAssessed },
});

const ROWS: TResultRow[] = [
  film(1, { findings: 'Pneumonia' }, { pneumonia: 0.9, covid19: 0.2 }, 'P1', 'A'),
  // "possible" is the call word under 0.5; scored by its probability, 0.45 is below this threshold: not called.
  withNotAssessed(
    film(2, { findings: 'Pneumonia|Effusion' }, { pneumonia: 0.45, covid19: 0.1 }, 'P1', 'A', 'possible'),
    [{ label: 'effusion', reason: 'withdrawn from this model version after external validation' }],
  ),
  film(3, { label: 'normal' }, { pneumonia: 0.3, covid19: 0.1 }, 'P2', 'A'),
  film(4, { label: 'covid19' }, { pneumonia: 0.6, covid19: 0.7 }, 'P3', 'B'),
  film(5, { findings: 'No Finding' }, { pneumonia: 0.55, covid19: 0.5 }, 'P4', 'B'),
  film(6, { findings: 'Pnemonia' }, { pneumonia: 0.8, covid19: 0.1 }, 'P5', 'B'),
  film(7, { label: 'abnormal' }, { pneumonia: 0.7, covid19: 0.2 }, 'P6', 'B'),
  film(8, { label: 'normal' }, null, 'P7', 'B'),
];

const OPTIONS = {
  rows: ROWS,
  settings: { seed: 1, resamples: 500 },
  other: null,
  reproducibility: {
    command: 'npm run batch -- labels.csv --key <key>',
    date: '2026-11-27T09:00:00.000Z',
    csvSha256: 'c'.repeat(64),
    manifest: { modelVersion: '3.0.0', sha256: 'm'.repeat(64) },
  },
  plots: { roc: 'r.csv.roc.png', calibration: 'r.csv.calibration.png' },
};

const close = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} ≉ ${expected}`);

describe('cohort evaluation', () => {
  const { summary: s, roc } = evaluateCohort(OPTIONS);

  test('counts, clusters and reproducibility', () => {
    assert.deepEqual([s.images, s.analysed, s.refusedByGate, s.notAnalysed], [8, 7, 1, 0]);
    assert.equal(s.clusters, 6, 'P1 has two films');
    assert.equal(s.groupedByPatient, true);
    assert.deepEqual(s.reproducibility.modelVersions, ['3.0.0']);
    assert.equal(s.reproducibility.modelSha256, 'm'.repeat(64));
    assert.equal(s.reproducibility.seed, 1);
    assert.doesNotThrow(() => ZBatchSummary.parse(JSON.parse(JSON.stringify(s))));
  });

  test('pneumonia: films 6 (typo) and 7 (abnormal, unspecified) left out; the operating point from the threshold', () => {
    const f = s.findings.find((x) => x.finding === 'pneumonia')!;
    assert.deepEqual([f.positives, f.negatives, f.leftOut], [2, 3, 2]);
    // Positives 0.9, 0.45 against 0.3, 0.6, 0.55: 0.9 beats 3, 0.45 beats 1: 4 of 6.
    close(f.auroc, 4 / 6);
    // Called at ≥ 0.5: film 1 (TP), 4 and 5 (FP); film 2 is "possible" at 0.45: FN; film 3 TN.
    assert.deepEqual(f.confusion, { tp: 1, fp: 2, fn: 1, tn: 1 });
    close(f.sensitivity, 0.5);
    close(f.specificity, 1 / 3);
    close(f.ppv, 1 / 3);
    close(f.npv, 0.5);
    close(f.prevalence, 0.4);
    assert.equal(f.threshold, 0.5);
    assert.ok(f.aurocCi && f.aurocCi[0] <= f.auroc! && f.auroc! <= f.aurocCi[1]);
    // Wilson for 1 of 2.
    close(f.sensitivityCi?.[0], 0.09453120573470332);
  });

  test('covid19: one positive, perfectly ranked', () => {
    const f = s.findings.find((x) => x.finding === 'covid19')!;
    assert.deepEqual([f.positives, f.negatives], [1, 4]);
    assert.equal(f.auroc, 1);
    assert.deepEqual(f.confusion, { tp: 1, fp: 1, fn: 0, tn: 3 });
  });

  test('triage from the highest probability (the model has no abnormal output), and it says so', () => {
    const t = s.triage;
    assert.equal(t.source, 'highest-probability');
    assert.match(t.explanation, /no abnormal output/);
    assert.deepEqual([t.positives, t.negatives], [5, 2]);
    // Positives 0.9, 0.45, 0.7, 0.8, 0.7 against 0.3, 0.55: 2 + 1 + 2 + 2 + 2 = 9 of 10.
    close(t.auroc, 0.9);
    // Flagged when any finding reaches its threshold: film 2 (0.45, 0.1) is the one missed; film 5 a false alarm.
    assert.deepEqual(t.confusion, { tp: 4, fp: 1, fn: 1, tn: 1 });
  });

  test('groups, names the model does not assess, names nobody knows', () => {
    assert.deepEqual(Object.keys(s.groups), ['A', 'B']);
    assert.equal(s.groups.A?.films, 3);
    assert.equal(s.groups.A?.findings.find((f) => f.finding === 'pneumonia')?.auroc, 1);
    assert.equal(s.groups.B?.films, 4);
    const bPneumonia = s.groups.B?.findings.find((f) => f.finding === 'pneumonia');
    assert.equal(bPneumonia?.auroc, null);
    assert.match(bPneumonia?.note ?? '', /no positive films/);
    assert.deepEqual(s.notAssessed, [
      {
        finding: 'pleural_effusion',
        positives: 1,
        reason: 'not assessed by this model',
        // The result's own words, read through the name mapping (the model calls it "effusion").
        detail: 'withdrawn from this model version after external validation',
      },
    ]);
    assert.deepEqual(s.unrecognised, [{ name: 'Pnemonia', rows: 1, lines: ['CSV line 7'], suggestion: 'pneumonia' }]);
  });

  test('calibration per finding and the ROC points', () => {
    const c = s.calibration.find((x) => x.finding === 'covid19')!;
    // Films 1-5: 0.2, 0.1, 0.1, 0.7 (positive), 0.5: Brier = (0.04 + 0.01 + 0.01 + 0.09 + 0.25) / 5.
    close(c.brier, 0.08);
    assert.equal(c.n, 5);
    assert.deepEqual(roc.find((r) => r.finding === 'covid19')?.points.at(1), [0, 1]);
  });

  test('a rerun with the same seed gives the same intervals, groups included', () => {
    const again = evaluateCohort(OPTIONS).summary;
    assert.deepEqual([again.findings, again.triage, again.groups], [s.findings, s.triage, s.groups]);
  });

  test('a version of the manifest that did not answer records no sha256, and says why', () => {
    const r = evaluateCohort({
      ...OPTIONS,
      reproducibility: { ...OPTIONS.reproducibility, manifest: { modelVersion: '2.0.0', sha256: 'x' } },
    }).summary.reproducibility;
    assert.equal(r.modelSha256, null);
    assert.match(r.modelSha256Note ?? '', /version 2\.0\.0, the server answered 3\.0\.0/);
  });

  test('compare: paired AUROC difference on the films both runs scored', () => {
    const other: TOtherRun = {
      file: 'old.csv',
      sha256: 'o'.repeat(64),
      modelVersions: ['2.0.0'],
      probabilities: new Map(
        [0.9, 0.8, 0.3, 0.6, 0.55].map((p, i) => [`s${i + 1}`, new Map([['pneumonia', p]])] as const),
      ),
    };
    const c = evaluateCohort({ ...OPTIONS, other }).summary.compare!;
    const pn = c.findings.find((f) => f.finding === 'pneumonia')!;
    assert.equal(pn.films, 5);
    // The other run ranks both positives (0.9, 0.8) above every negative: AUROC 1; here 4/6.
    close(pn.aurocOther, 1);
    close(pn.difference, 4 / 6 - 1);
    // Paired: in every resample the other model is perfect, so the difference is never above 0.
    assert.ok(pn.differenceCi && pn.differenceCi[1] <= 0 && pn.differenceCi[0] <= pn.difference!);
    const cv = c.findings.find((f) => f.finding === 'covid19')!;
    assert.equal(cv.films, 0);
    assert.match(cv.note ?? '', /no film scored for this finding in both runs/);
    // Against itself the difference is exactly 0 in every resample.
    const self: TOtherRun = {
      ...other,
      probabilities: new Map(
        ROWS.map((r) => [r.outcome.sha256, new Map(r.outcome.findings.map((f) => [f.label, f.probability]))]),
      ),
    };
    const same = evaluateCohort({ ...OPTIONS, other: self }).summary.compare!.findings[0]!;
    assert.deepEqual([same.difference, same.differenceCi], [0, [0, 0]]);
  });

  test('--compare reads a results CSV as this command writes it, and refuses anything else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cxr-compare-'));
    writeFileSync(join(dir, 'results.csv'), resultsCsv(ROWS));
    const other = await readOtherRun(join(dir, 'results.csv'));
    assert.equal(other.probabilities.size, 7, 'the refused film has no probabilities');
    assert.equal(other.probabilities.get('s2')?.get('pneumonia'), 0.45);
    assert.deepEqual(other.modelVersions, ['3.0.0']);
    assert.match(other.sha256, /^[0-9a-f]{64}$/);
    writeFileSync(join(dir, 'labels.csv'), 'path,findings\na.jpg,Effusion\n');
    await assert.rejects(
      readOtherRun(join(dir, 'labels.csv')),
      (err: Error) => err instanceof CsvInputError && /is not a batch results CSV/.test(err.message),
    );
  });

  test('the Markdown and both plots', async () => {
    const md = writeSummaryMarkdown(s);
    assert.match(
      md,
      /\| pneumonia \| 2 \| 3 \| 0\.667 \(\d\.\d{3}–\d\.\d{3}\) \| 0\.500 \| 0\.500 \(0\.095–0\.905\) \|/,
    );
    assert.match(md, /\| triage \(any finding\) \| 5 \| 2 \| 0\.900/);
    assert.match(md, /pleural_effusion: 1 positive film\(s\), not assessed by this model \(withdrawn from this model/);
    assert.match(md, /"Pnemonia": 1 row\(s\) \(CSV line 7\); did you mean pneumonia\?/);
    assert.match(md, /## Group: B \(4 films\)/);
    assert.match(md, /!\[ROC curves\]\(r\.csv\.roc\.png\)/);
    const plots = await renderPlots(s, roc);
    for (const png of [plots.roc, plots.calibration]) {
      const meta = await sharp(png).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 640, 670]);
      // Not a blank page: the curves put colour on it.
      const { channels } = await sharp(png).stats();
      assert.ok(channels[2]!.min < 200, 'some blue (the first curve) is drawn');
    }
  });
});
