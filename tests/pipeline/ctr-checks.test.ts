import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'vitest';
import type { Mask } from '../../worker/src/pipeline/anatomy.js';
import {
  checkCtr,
  ctrMeasures,
  DEFAULT_CTR_CHECKS,
  type CtrChecks,
  type CtrMeasures,
  type CtrUnreliableCode,
} from '../../worker/src/pipeline/check-ctr.js';
import { CTR_UNRELIABLE_REASONS } from '../../server/src/services/analysis/anatomy-text.js';
import { CTR_UNRELIABLE_CODES } from '@contracts/schemas/analysis.js';

// Made by models/train/cxr_train/export/ctr_fixtures.py with the Python twin (models/train/cxr_train/anatomy/ctr_checks.py).
interface Case {
  name: string;
  lung: string;
  heart: string;
  ctr: number;
  checks: Partial<CtrChecks> | null;
  measures: CtrMeasures | null;
  /** The Python twin's verdict: the code, and the words the server must use for it. */
  expected: { code: CtrUnreliableCode; reason: string } | null;
}
const fixtures = JSON.parse(await readFile('tests/fixtures/ctr-checks.json', 'utf8')) as {
  grid: number;
  defaults: CtrChecks;
  cases: Case[];
};

/** np.packbits (big-endian bit order) in base64 -> a grid x grid mask. */
function unpack(b64: string, grid: number): Mask {
  const bytes = Buffer.from(b64, 'base64');
  const data = new Uint8Array(grid * grid);
  for (let i = 0; i < data.length; i++) data[i] = (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
  return { width: grid, height: grid, data };
}

describe('CTR plausibility checks: TypeScript = Python', () => {
  test('same defaults', () => {
    assert.deepEqual(DEFAULT_CTR_CHECKS, fixtures.defaults);
  });

  test('the fixtures cover every verdict', () => {
    const codes = new Set<string | null>(fixtures.cases.map((c) => c.expected?.code ?? null));
    // heart_border_obscured is not a mask check (check-heart-border.ts; tests/pipeline/heart-border-projection.test.ts).
    const maskCodes = CTR_UNRELIABLE_CODES.filter((c) => c !== 'heart_border_obscured');
    for (const code of [null, ...maskCodes]) assert.ok(codes.has(code), `no case for ${code}`);
  });

  for (const c of fixtures.cases) {
    test(c.name, () => {
      const lung = unpack(c.lung, fixtures.grid);
      const heart = unpack(c.heart, fixtures.grid);
      const m = ctrMeasures(lung, heart);
      if (c.measures === null) assert.equal(m, null);
      else {
        assert.ok(m);
        for (const [k, v] of Object.entries(c.measures))
          assert.ok(Math.abs(m[k as keyof CtrMeasures] - v) < 1e-12, `${k}: ${m[k as keyof CtrMeasures]} vs ${v}`);
      }
      const verdict = checkCtr(lung, heart, c.ctr, { ...DEFAULT_CTR_CHECKS, ...c.checks });
      assert.deepEqual(verdict, c.expected && { code: c.expected.code });
      if (c.expected) assert.equal(CTR_UNRELIABLE_REASONS[c.expected.code], c.expected.reason, 'the server words it');
    });
  }
});
