/**
 * The per-file split that `npm run test:timings` reports (tests/setup/timings-reporter.ts): how
 * much of a file's wall time went to booting (importing the file and its app, then the
 * beforeAll/afterAll hooks that start databases, apps and browsers) and how much to its tests.
 * Pure, so tests/setup/summarize-timings.test.ts can hold it without running vitest in vitest.
 */

export interface TFileTiming {
  file: string;
  project: string;
  /** Import of the file and everything it pulls in, plus vitest's own set-up of the worker. */
  importMs: number;
  /** beforeAll/afterAll hooks: the time in the file's run that no test was running. */
  hooksMs: number;
  /** Wall time while at least one test (with its beforeEach/afterEach hooks) ran. */
  testsMs: number;
  /** importMs + hooksMs: what the file spends before (and after) its first request. */
  bootMs: number;
  wallMs: number;
  tests: number;
  state: string;
}

export interface TRawModule {
  file: string;
  project: string;
  state: string;
  /** vitest's ModuleDiagnostic. */
  environmentSetupDuration: number;
  prepareDuration: number;
  collectDuration: number;
  setupDuration: number;
  /** Tests and hooks of the module together. */
  duration: number;
  /** Each test's start and duration (TestDiagnostic); concurrent tests overlap. */
  tests: { startTime: number; duration: number }[];
}

/** Length of the union of [start, start + duration) intervals. */
export function coveredMs(intervals: { startTime: number; duration: number }[]): number {
  const sorted = [...intervals].sort((a, b) => a.startTime - b.startTime);
  let total = 0;
  let end = -Infinity;
  for (const { startTime, duration } of sorted) {
    const stop = startTime + duration;
    if (stop <= end) continue;
    total += stop - Math.max(startTime, end);
    end = stop;
  }
  return total;
}

export function summarizeModule(m: TRawModule): TFileTiming {
  const importMs = m.environmentSetupDuration + m.prepareDuration + m.collectDuration + m.setupDuration;
  const testsMs = Math.min(coveredMs(m.tests), m.duration);
  const hooksMs = Math.max(0, m.duration - testsMs);
  const round = (n: number) => Math.round(n);
  return {
    file: m.file,
    project: m.project,
    importMs: round(importMs),
    hooksMs: round(hooksMs),
    testsMs: round(testsMs),
    bootMs: round(importMs + hooksMs),
    wallMs: round(importMs + m.duration),
    tests: m.tests.length,
    state: m.state,
  };
}

/** Slowest first; a plain-text table of at most `rows` files and the totals of all of them. */
export function timingTable(files: TFileTiming[], rows = files.length): string {
  const sorted = [...files].sort((a, b) => b.wallMs - a.wallMs);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const head = ['wall s', 'boot s', 'import', 'hooks', 'tests s', 'n', 'file'];
  const line = (f: TFileTiming) => [
    s(f.wallMs),
    s(f.bootMs),
    s(f.importMs),
    s(f.hooksMs),
    s(f.testsMs),
    String(f.tests),
    `${f.file}${f.state === 'passed' ? '' : ` (${f.state})`}`,
  ];
  const sum = (k: 'wallMs' | 'bootMs' | 'importMs' | 'hooksMs' | 'testsMs') => files.reduce((a, f) => a + f[k], 0);
  const total = [
    s(sum('wallMs')),
    s(sum('bootMs')),
    s(sum('importMs')),
    s(sum('hooksMs')),
    s(sum('testsMs')),
    String(files.reduce((a, f) => a + f.tests, 0)),
    `all ${files.length} files (sum, not the run's wall time)`,
  ];
  const table = [head, ...sorted.slice(0, rows).map(line), total];
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padStart(widths[i]!))).join('  ')).join('\n');
}
