import { performance } from 'node:perf_hooks';

/**
 * The timing loop of the service benches (bench:worklist, bench:history): three warm-up calls,
 * then `runs` timed one after another, printed as one line with the median and the 95th
 * percentile. Returns both (ms) for a caller that checks them.
 */
export async function timeCalls(
  label: string,
  runs: number,
  fn: () => Promise<unknown>,
): Promise<{ medianMs: number; p95Ms: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
  const result = { medianMs: at(0.5), p95Ms: at(0.95) };
  console.log(
    `${label.padEnd(58)} runs=${runs}  median=${result.medianMs.toFixed(2)} ms  p95=${result.p95Ms.toFixed(2)} ms`,
  );
  return result;
}
