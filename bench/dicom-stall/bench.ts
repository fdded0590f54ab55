/**
 * npm run bench:dicom-stall
 *
 * Issue 23, N1: does a hostile DICOM stall the web server? Starts the real server as its own
 * process (no analysis worker: only the upload path is measured), then uploads, one at a time,
 * the scan's four hostile files (built in code: tests/helpers/write-hostile-dicom.ts) and, as a
 * fifth case, the costliest file the pixel budget lets through (an empty 7000×7000 8-bit JPEG 2000:
 * 47 MB of pixels, decoded for real). During each upload `/healthz` is probed every 50 ms.
 *
 * Prints per file: the answer (status, message), the upload's time, the worst and median probe,
 * and the server's resident memory (sampled with the probes, and its high-water mark from
 * /proc, VmHWM). Decode threads live inside the server process, so its RSS includes them.
 * Targets (issue 23): worst probe < 100 ms, server memory < 600 MB. The last line is JSON.
 * The app runs on PostgreSQL as deployed (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * a throwaway database is made and dropped): in-process PGlite alone takes ~900 MB of RSS.
 * Needs Redis too (REDIS_URL, default 127.0.0.1:6379).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { E2eApp } from '../../tests/helpers/e2e-app.js';
import { PATIENT } from '../../tests/analysis/support/fixtures.js';
import { multipart } from '../../tests/helpers/post-multipart.js';
import { deflateBombDicom, hostileJ2kDicom, hostileRleDicom } from '../../tests/helpers/write-hostile-dicom.js';
import { loadAverage } from '../lib/read-load-average.js';
import { signUpBenchUser, startPostgresBenchApp } from '../lib/start-bench-app.js';
import { percentile } from '../load/stats.js';

const PROBE_EVERY_MS = 50;
const UPLOAD_TIMEOUT_MS = 180_000;

interface CaseResult {
  file: string;
  bytes: number;
  status: number;
  message: string;
  uploadMs: number;
  probes: number;
  worstProbeMs: number;
  medianProbeMs: number;
  peakRssMb: number;
}

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** Resets the kernel's peak-RSS mark (VmHWM) so that each case reads its own peak; false if refused. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Probes /healthz back to back at PROBE_EVERY_MS until stopped; a probe's time is its own wait. */
function startProbes(app: E2eApp) {
  const times: number[] = [];
  const pid = app.server.pid!;
  const exactPeak = resetPeak(pid);
  let rssPeak = procStatusMb(pid, 'VmRSS');
  // Sampled from this process, so a stalled server cannot delay its own memory readings.
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, procStatusMb(pid, 'VmRSS'))), 20);
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await fetch(`${app.url}/healthz`, { signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) }).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      const ms = performance.now() - t0;
      times.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, PROBE_EVERY_MS - ms)));
    }
  })();
  return async () => {
    running = false;
    await loop;
    clearInterval(sampler);
    return { times, rssPeak: exactPeak ? Math.max(rssPeak, procStatusMb(pid, 'VmHWM')) : rssPeak };
  };
}

/** The probes alone for a few seconds: what this machine's load does to /healthz with no upload. */
async function idle(app: E2eApp): Promise<CaseResult> {
  const stop = startProbes(app);
  await new Promise((r) => setTimeout(r, 3000));
  const { times, rssPeak } = await stop();
  return {
    file: 'no upload (noise floor)',
    bytes: 0,
    status: 0,
    message: '',
    uploadMs: 0,
    probes: times.length,
    worstProbeMs: Math.round(Math.max(...times)),
    medianProbeMs: Math.round(percentile(times, 50)),
    peakRssMb: rssPeak,
  };
}

async function upload(app: E2eApp, token: string, name: string, file: Buffer): Promise<CaseResult> {
  const stop = startProbes(app);
  await new Promise((r) => setTimeout(r, 200));
  const body = multipart([
    { name: 'profile', value: JSON.stringify(PATIENT) },
    { name: 'image', value: file, filename: `${name}.dcm`, type: 'application/dicom' },
  ]);
  const t0 = performance.now();
  const res = await fetch(`${app.url}/api/chat/upload`, {
    method: 'POST',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    body: body.payload,
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  }).catch((err: unknown) => err as Error);
  const uploadMs = performance.now() - t0;
  const message =
    res instanceof Error ? res.message : (((await res.json()) as { message?: string }).message ?? 'accepted');
  // Keep probing a little: a server that answers the upload and then stalls shows it here.
  await new Promise((r) => setTimeout(r, 500));
  const { times, rssPeak } = await stop();
  return {
    file: name,
    bytes: file.length,
    status: res instanceof Error ? 0 : res.status,
    message,
    uploadMs: Math.round(uploadMs),
    probes: times.length,
    worstProbeMs: Math.round(Math.max(...times)),
    medianProbeMs: Math.round(percentile(times, 50)),
    peakRssMb: rssPeak,
  };
}

async function main(): Promise<void> {
  const loadStart = loadAverage();
  const files: [string, () => Promise<Buffer>][] = [
    ['j2k-7000-16bit', () => hostileJ2kDicom(16)],
    ['rle-7000-16bit', hostileRleDicom],
    ['deflate-256MiB', () => deflateBombDicom(256)],
    ['deflate-1GiB', () => deflateBombDicom(1024)],
    ['j2k-7000-8bit (within budget: decoded in a thread)', () => hostileJ2kDicom(8)],
  ];
  const app = await startPostgresBenchApp(
    { RATE_LIMIT_DISABLED: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    { worker: false },
  );
  const results: CaseResult[] = [];
  try {
    const token = await signUpBenchUser(app, 'stall');
    const baselineRssMb = procStatusMb(app.server.pid!, 'VmRSS');
    console.log(`server RSS after start and sign-up: ${baselineRssMb} MB`);
    const floor = await idle(app);
    console.log(
      `${floor.file.padEnd(46)} /healthz worst ${floor.worstProbeMs} ms, median ${floor.medianProbeMs} ms (${floor.probes} probes)`,
    );
    for (const [name, make] of files) {
      const file = await make();
      const r = await upload(app, token, name, file);
      results.push(r);
      console.log(
        `${name.padEnd(46)} ${String(r.bytes).padStart(8)} B → ${r.status} "${r.message}" in ${r.uploadMs} ms; ` +
          `/healthz worst ${r.worstProbeMs} ms, median ${r.medianProbeMs} ms (${r.probes} probes); RSS peak ${r.peakRssMb} MB`,
      );
    }
    const hostile = results.slice(0, 4);
    const summary = {
      bench: 'dicom-stall',
      worstProbeMs: Math.max(...hostile.map((r) => r.worstProbeMs)),
      peakRssMb: Math.max(...hostile.map((r) => r.peakRssMb)),
      withinBudgetCase: { worstProbeMs: results[4]!.worstProbeMs, peakRssMb: results[4]!.peakRssMb },
      baselineRssMb,
      noiseFloor: { worstProbeMs: floor.worstProbeMs, medianProbeMs: floor.medianProbeMs },
      targets: { worstProbeMs: 100, serverMemoryMb: 600 },
      cases: results,
      cores: availableParallelism(),
      loadAvgStart: loadStart,
      loadAvgEnd: loadAverage(),
    };
    console.log(
      `four hostile files: worst /healthz ${summary.worstProbeMs} ms, server RSS peak ${summary.peakRssMb} MB`,
    );
    console.log(
      `the within-budget 7000×7000 8-bit file: worst /healthz ${summary.withinBudgetCase.worstProbeMs} ms, server RSS peak ${summary.withinBudgetCase.peakRssMb} MB`,
    );
    console.log(
      `load average (1/5/15 min) at start: ${loadStart}, at end: ${summary.loadAvgEnd} on ${summary.cores} cores`,
    );
    console.log(JSON.stringify(summary));
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
