import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { coveredMs, summarizeModule, timingTable } from './summarize-timings.js';

const raw = {
  file: 'tests/a.test.ts',
  project: 'integration',
  state: 'passed',
  environmentSetupDuration: 100,
  prepareDuration: 200,
  collectDuration: 1_700,
  setupDuration: 0,
  duration: 10_000,
  tests: [
    { startTime: 5_000, duration: 2_000 },
    { startTime: 7_000, duration: 1_000 },
  ],
};

describe('test timings split (npm run test:timings)', () => {
  it('counts overlapping (concurrent) tests once', () => {
    assert.equal(
      coveredMs([
        { startTime: 0, duration: 10 },
        { startTime: 5, duration: 10 },
        { startTime: 30, duration: 5 },
        { startTime: 31, duration: 1 },
      ]),
      20,
    );
    assert.equal(coveredMs([]), 0);
  });

  it('puts import and beforeAll/afterAll hooks in boot, the rest in tests', () => {
    const t = summarizeModule(raw);
    assert.deepEqual(
      { importMs: t.importMs, hooksMs: t.hooksMs, testsMs: t.testsMs, bootMs: t.bootMs, wallMs: t.wallMs, n: t.tests },
      { importMs: 2_000, hooksMs: 7_000, testsMs: 3_000, bootMs: 9_000, wallMs: 12_000, n: 2 },
    );
  });

  it('sorts the table slowest first and sums every file, not only the rows shown', () => {
    const slow = summarizeModule({ ...raw, file: 'tests/slow.test.ts', duration: 50_000 });
    const fast = summarizeModule({ ...raw, file: 'tests/fast.test.ts', state: 'failed' });
    const lines = timingTable([fast, slow], 1).split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[1]!, /^\s*52\.0\s+49\.0\s.*tests\/slow\.test\.ts$/);
    assert.match(lines[2]!, /^\s*64\.0\s.*\b4\s+all 2 files/);
    assert.match(timingTable([fast]), /tests\/fast\.test\.ts \(failed\)/);
  });
});
