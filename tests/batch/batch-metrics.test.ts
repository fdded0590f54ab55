import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { parseBatchArgs } from '../../scripts/batch/args.js';
import { formatCsv, parseCsv, parseCsvObjects } from '../../scripts/batch/csv.js';
import { confusionAt, rocAuc, sensitivity, specificity } from '../../scripts/batch/metrics.js';
import { resultsCsv, type TResultRow } from '../../scripts/batch/results.js';
import type { TOutcome } from '../../scripts/batch/state-store.js';
import { summarise, summaryMarkdown } from '../../scripts/batch/summary.js';

const outcome = (p: Record<string, number>, extra: Partial<TOutcome> = {}): TOutcome => ({
  sha256: Math.random().toString(16).slice(2),
  status: 'completed',
  chatId: crypto.randomUUID(),
  accepted: true,
  gateReason: null,
  modelVersion: 'v1',
  topFinding:
    Object.entries(p)
      .filter(([, v]) => v >= 0.5)
      .sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
  findings: Object.entries(p).map(([label, probability]) => ({
    label,
    probability,
    threshold: 0.5,
    call: probability >= 0.5 ? 'positive' : 'negative',
  })),
  error: null,
  ...extra,
});
const row = (file: string, label: string | null, o: TOutcome): TResultRow => ({
  input: { file, absPath: file, label, patient: {} },
  outcome: o,
});

describe('batch metrics and files', () => {
  test('ROC AUC: perfect, inverted, random-with-ties, undefined', () => {
    assert.equal(
      rocAuc([
        { score: 0.9, positive: true },
        { score: 0.1, positive: false },
      ]),
      1,
    );
    assert.equal(
      rocAuc([
        { score: 0.1, positive: true },
        { score: 0.9, positive: false },
      ]),
      0,
    );
    assert.equal(
      rocAuc([
        { score: 0.5, positive: true },
        { score: 0.5, positive: false },
      ]),
      0.5,
    );
    // 3 positives, 2 negatives: pairs won = (0.8>0.3,0.8>0.6) + (0.7>0.3,0.7>0.6) + (0.4>0.3) = 5 of 6.
    const auc = rocAuc(
      [0.8, 0.7, 0.4]
        .map((score) => ({ score, positive: true }))
        .concat([0.3, 0.6].map((score) => ({ score, positive: false }))),
    );
    assert.ok(Math.abs((auc ?? 0) - 5 / 6) < 1e-12);
    assert.equal(rocAuc([{ score: 0.5, positive: true }]), null);
  });

  test('confusion counts, sensitivity and specificity at a threshold', () => {
    const items = [
      { score: 0.9, positive: true },
      { score: 0.4, positive: true },
      { score: 0.6, positive: false },
      { score: 0.1, positive: false },
    ];
    const c = confusionAt(items, 0.5);
    assert.deepEqual(c, { tp: 1, fp: 1, fn: 1, tn: 1 });
    assert.equal(sensitivity(c), 0.5);
    assert.equal(specificity(c), 0.5);
  });

  test('CSV: quotes, commas, newlines round-trip; formula cells are defused', () => {
    const text = formatCsv(
      ['a', 'b'],
      [
        ['x,y', 'say "hi"'],
        ['line\nbreak', '=cmd()'],
        [-1.5, null],
      ],
    );
    assert.deepEqual(parseCsv(text), [
      ['a', 'b'],
      ['x,y', 'say "hi"'],
      ['line\nbreak', "'=cmd()"],
      ['-1.5', ''],
    ]);
    assert.deepEqual(parseCsvObjects('Path,Label\r\na.png,Pneumonia\r\n'), [{ path: 'a.png', label: 'Pneumonia' }]);
  });

  test('results CSV has one column per label for probabilities and calls', () => {
    const csv = resultsCsv([
      row('a.png', null, outcome({ pneumonia: 0.9, covid19: 0.1 })),
      row('b.dcm', null, { ...outcome({}), status: 'rejected', error: 'not a radiograph' }),
    ]);
    const [header, a, b] = parseCsv(csv);
    assert.deepEqual(header, [
      'file',
      'sha256',
      'status',
      'accepted',
      'gate_reason',
      'p_pneumonia',
      'p_covid19',
      'call_pneumonia',
      'call_covid19',
      'top_finding',
      'model_version',
      'chat_id',
      'error',
    ]);
    assert.equal(a?.[5], '0.9000');
    assert.equal(a?.[7], 'positive');
    assert.equal(b?.[2], 'rejected');
    assert.equal(b?.[12], 'not a radiograph');
  });

  test('summary: per-finding AUC/sensitivity/specificity and a true-label × top-finding matrix', () => {
    const rows = [
      row('1', 'pneumonia', outcome({ pneumonia: 0.9, covid19: 0.2 })),
      row('2', 'pneumonia', outcome({ pneumonia: 0.4, covid19: 0.1 })),
      row('3', 'normal', outcome({ pneumonia: 0.3, covid19: 0.1 })),
      row('4', 'covid19', outcome({ pneumonia: 0.2, covid19: 0.8 })),
      row('5', 'normal', outcome({}, { status: 'refused', accepted: false, gateReason: 'colour photograph' })),
    ];
    const s = summarise(rows);
    assert.equal(s.images, 5);
    assert.equal(s.analysed, 4);
    assert.equal(s.refusedByGate, 1);
    const pn = s.findings.find((f) => f.label === 'pneumonia');
    assert.deepEqual(pn?.confusion, { tp: 1, fp: 0, fn: 1, tn: 2 });
    assert.equal(pn?.auc, 1);
    assert.equal(pn?.sensitivity, 0.5);
    assert.equal(pn?.specificity, 1);
    assert.deepEqual(s.confusionMatrix.labels, ['covid19', 'normal', 'pneumonia']);
    assert.deepEqual(s.confusionMatrix.predicted, ['pneumonia', 'covid19', 'none']);
    assert.deepEqual(s.confusionMatrix.counts, [
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 1],
    ]);
    assert.match(
      summaryMarkdown(s),
      /\| pneumonia \| 2 \| 2 \| 1\.000 \| 0\.500 \| 0\.500 \| 1\.000 \| 1 \| 0 \| 1 \| 2 \|/,
    );
  });

  test('arguments: key required, defaults, URL trimmed', () => {
    assert.throws(() => parseBatchArgs(['imgs'], {}), /API key/);
    const a = parseBatchArgs(['imgs', '--api', 'http://h:1/', '--out', 'r.csv'], { CXR_API_KEY: 'cxr_abc' });
    assert.deepEqual(a, {
      input: 'imgs',
      api: 'http://h:1',
      key: 'cxr_abc',
      out: 'r.csv',
      concurrency: 4,
      waitSeconds: 300,
    });
  });
});
