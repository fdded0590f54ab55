import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { parseBatchArgs } from '../../scripts/batch/args.js';
import { formatCsv, parseCsv, parseCsvObjects } from '../../scripts/batch/csv.js';
import { resultsCsv, type TResultRow } from '../../scripts/batch/results.js';
import type { TOutcome } from '../../scripts/batch/state-store.js';

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
  input: { file, absPath: file, label, findings: null, patientId: null, groups: {}, patient: {} },
  outcome: o,
});

describe('batch files and arguments', () => {
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
      seed: 1,
      resamples: 2000,
      compare: null,
      groupBy: ['group'],
      modelDir: 'models/cxr',
    });
    const b = parseBatchArgs(['c.csv', '--seed', '7', '--bootstrap', '500', '--group-by', 'Source, view'], {
      CXR_API_KEY: 'cxr_abc',
      MODEL_DIR: '/m',
    });
    assert.deepEqual([b.seed, b.resamples, b.groupBy, b.modelDir], [7, 500, ['source', 'view'], '/m']);
    assert.throws(() => parseBatchArgs(['c.csv', '--bootstrap', '5'], { CXR_API_KEY: 'cxr_abc' }), /--bootstrap/);
  });
});
