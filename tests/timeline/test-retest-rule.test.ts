import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { ZTestRetest } from '@contracts/model/test-retest.js';
import type { TFinding } from '@contracts/schemas/analysis.js';
import { measureTestRetest } from '../../scripts/measure-test-retest.js';
import { changeOf, compareResults } from '../../server/src/services/timeline/compare-results.js';
import { comparisonHeading, comparisonLines } from '../../server/src/services/timeline/comparison-text.js';
import { loadChangeRule } from '../../server/src/services/timeline/load-change-margin.js';
import { MODEL_DIR, sampleResultV2 } from '../analysis/support/fixtures.js';

const committed = ZTestRetest.parse(JSON.parse(readFileSync(`${MODEL_DIR}/test-retest.json`, 'utf8')));
const manifest = JSON.parse(readFileSync(`${MODEL_DIR}/manifest.json`, 'utf8')) as {
  modelVersion: string;
  findings: { label: string; display: string; threshold: number }[];
};
const thresholdOf = (label: string) => manifest.findings.find((f) => f.label === label)!.threshold;
const finding = (label: string, probability: number): TFinding => {
  const threshold = thresholdOf(label);
  return { label, display: label, probability, threshold, call: probability >= threshold ? 'possible' : 'negative' };
};
const snapshot = (studyDate: string | null, findings: TFinding[]) => ({
  analysisId: '00000000-0000-4000-8000-000000000001',
  chatId: '00000000-0000-4000-8000-000000000002',
  createdAt: new Date('2026-11-29T06:00:00Z'),
  studyDate,
  result: sampleResultV2({ findings }),
});

/**
 * Issue 49 item 6: a change is named only beyond the finding's measured test-retest spread, and
 * the comparison is dated by the prior's StudyDate (the upload's day only when there is none).
 */
describe('comparison by study date, judged by the measured test-retest spread', () => {
  test('the committed test-retest.json is what the script measures with the real model on the fixture films', async () => {
    assert.equal(committed.modelVersion, manifest.modelVersion);
    const measured = await measureTestRetest(MODEL_DIR);
    assert.deepEqual(Object.keys(measured.findings).sort(), Object.keys(committed.findings).sort());
    for (const [label, f] of Object.entries(measured.findings)) {
      // Same films, same variants, same runtime: the same figures (to rounding across CPUs).
      assert.ok(Math.abs(f.spread - committed.findings[label]!.spread) < 0.002, label);
      assert.equal(f.n, committed.findings[label]!.n, label);
    }
    assert.ok(committed.films.length >= 10);
    assert.deepEqual(
      committed.variants.filter((v) => /jpeg|flip|window/.test(v)),
      committed.variants,
      'each variant is a re-encoding, a flip or a window',
    );
  }, 120_000);

  test('the shipped rule reads each finding’s spread from the file', () => {
    const rule = loadChangeRule(MODEL_DIR);
    assert.equal(rule.spreads.edema, committed.findings.edema!.spread);
    assert.ok(Object.keys(rule.spreads).length >= manifest.findings.length - 1);
    assert.deepEqual(loadChangeRule('/nonexistent').spreads, {});
  });

  test('"Edema resolved (8.6 % → 7.2 %)" is within the spread: unchanged, though the call crossed the threshold', () => {
    const spread = committed.findings.edema!.spread;
    const before = finding('edema', 0.086);
    const after = finding('edema', 0.072);
    assert.equal(before.call, 'possible');
    assert.equal(after.call, 'negative');
    assert.ok(spread > 0.014, `edema's measured spread ${spread}`);
    assert.equal(changeOf(before, after, 0.7, spread), 'unchanged');
    // The same crossing beyond the spread is named, and so is a move beyond it with no crossing.
    assert.equal(changeOf(finding('edema', 0.086 + spread + 0.01), after, 0.7, spread), 'resolved');
    assert.equal(changeOf(after, finding('edema', 0.072 + spread + 0.01), 0.7, spread), 'new');
    const high = finding('edema', 0.5);
    assert.equal(changeOf(high, finding('edema', 0.5 + spread + 0.01), 0.7, spread), 'higher');
    assert.equal(changeOf(high, finding('edema', 0.5 - spread - 0.01), 0.7, spread), 'lower');
  });

  test('"Pleural thickening new" on a small move is unchanged, and the text says it is within the spread', () => {
    const rule = loadChangeRule(MODEL_DIR);
    const t = thresholdOf('pleural_thickening');
    const spread = rule.spreads.pleural_thickening!;
    const prior = snapshot('2026-11-26', [finding('pleural_thickening', t - spread / 3)]);
    const c = compareResults(
      prior,
      sampleResultV2({ findings: [finding('pleural_thickening', t + spread / 3)] }),
      rule,
    );
    assert.equal(c.findings[0]!.change, 'unchanged');
    assert.equal(c.findings[0]!.spread, spread);
    const text = comparisonLines(c).join('\n');
    assert.match(text, /^### Compared with the study of 2026-11-26\n/);
    assert.ok(
      text.includes(`| unchanged (within ±${(spread * 100).toFixed(1)} points, the measured test-retest spread) |`),
      text,
    );
    assert.doesNotMatch(text, /\| new/);
  });

  test('no StudyDate: the upload date, said as such', () => {
    const c = compareResults(snapshot(null, []), sampleResultV2({ findings: [] }), loadChangeRule(MODEL_DIR));
    assert.equal(comparisonHeading(c), 'Compared with the study uploaded on 2026-11-29 (no study date recorded)');
    assert.equal(c.prior.studyDate, null);
  });
});
