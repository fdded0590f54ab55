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
 * Targets (issue 23): worst probe < 100 ms, server memory < 600 MB.
 *
 * Issue 36 adds two cases on the DICOM node (DICOM_PORT on, its owner proven through the mailed
 * link as a person would, default limits), each with the same probes: `huge PDU`, senders that
 * each send an A-ASSOCIATE-RQ header claiming 0xFFFFFFF0 bytes and then zeros, reconnecting when
 * the node closes them, for HUGE_PDU_SECONDS (default 10), run with one sender and then four as the
 * scan did (HUGE_PDU_SENDERS=1,4); and `idle connections`, IDLE_CONNECTIONS (default 2,000; the
 * scan held 19,900) connections that send nothing, from 200 loopback addresses, held
 * IDLE_HOLD_SECONDS (default 35: past the 30 s ARTIM). Targets
 * (issue 36): worst probe < 100 ms and server RSS growth (peak over the RSS before the case)
 * < 100 MB for both. CASES=uploads or CASES=dimse runs one group only. The last line is JSON.
 * The app runs on PostgreSQL as deployed (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * a throwaway database is made and dropped): in-process PGlite alone takes ~900 MB of RSS.
 * Needs Redis too (REDIS_URL, default 127.0.0.1:6379).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { confirmDicomOwner } from '../../tests/e2e/support/confirm-dicom-owner.js';
import { signUpViaApi } from '../../tests/e2e/support/client-ui.js';
import { freePort } from '../../tests/helpers/start-orthanc.js';
import type { E2eApp } from '../../tests/helpers/e2e-app.js';
import { PATIENT } from '../../tests/analysis/support/fixtures.js';
import { multipart } from '../../tests/helpers/post-multipart.js';
import { deflateBombDicom, hostileJ2kDicom, hostileRleDicom } from '../../tests/helpers/write-hostile-dicom.js';
import { loadAverage } from '../lib/read-load-average.js';
import { signUpBenchUser, startPostgresBenchApp } from '../lib/start-bench-app.js';
import { percentile } from '../load/stats.js';
import { hugePduFlood, idleConnections, type THugePduOutcome, type TIdleOutcome } from './dimse-attacks.js';

const PROBE_EVERY_MS = 50;
const UPLOAD_TIMEOUT_MS = 180_000;
const CASES = new Set((process.env.CASES ?? 'uploads,dimse').split(','));
/** The scan's two runs: one connection, then four at once. */
const HUGE_PDU_SENDERS = (process.env.HUGE_PDU_SENDERS ?? '1,4').split(',').map(Number);
const HUGE_PDU_SECONDS = Number(process.env.HUGE_PDU_SECONDS ?? 10);
const IDLE_CONNECTIONS = Number(process.env.IDLE_CONNECTIONS ?? 2000);
const IDLE_HOLD_SECONDS = Number(process.env.IDLE_HOLD_SECONDS ?? 35);
const DIMSE_TARGETS = { worstProbeMs: 100, rssGrowthMb: 100 };

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
  let failed = 0;
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
        async (r) => {
          await r.arrayBuffer();
          if (!r.ok) failed += 1;
        },
        () => (failed += 1),
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
    return { times, failed, rssPeak: exactPeak ? Math.max(rssPeak, procStatusMb(pid, 'VmHWM')) : rssPeak };
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

interface DimseResult<T> {
  name: string;
  outcome: T;
  probes: number;
  worstProbeMs: number;
  medianProbeMs: number;
  /** Failed probes (no answer at all): the scan's idle connections made every probe fail. */
  failedProbes: number;
  rssBeforeMb: number;
  peakRssMb: number;
  rssGrowthMb: number;
  seconds: number;
}

/** One attack on the DICOM node with /healthz probed throughout and the server's RSS sampled. */
async function dimseCase<T>(app: E2eApp, name: string, attack: () => Promise<T>): Promise<DimseResult<T>> {
  const rssBeforeMb = procStatusMb(app.server.pid!, 'VmRSS');
  const stop = startProbes(app);
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  const outcome = await attack();
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  const { times, failed, rssPeak } = await stop();
  return {
    name,
    outcome,
    probes: times.length,
    worstProbeMs: Math.round(Math.max(...times)),
    medianProbeMs: Math.round(percentile(times, 50)),
    failedProbes: failed,
    rssBeforeMb,
    peakRssMb: rssPeak,
    rssGrowthMb: rssPeak - rssBeforeMb,
    seconds: Number(seconds.toFixed(1)),
  };
}

function printDimse(r: DimseResult<THugePduOutcome | TIdleOutcome>) {
  console.log(
    `${r.name.padEnd(46)} ${JSON.stringify(r.outcome)} in ${r.seconds} s; /healthz worst ${r.worstProbeMs} ms, ` +
      `median ${r.medianProbeMs} ms (${r.probes} probes, ${r.failedProbes} failed); RSS ${r.rssBeforeMb} → peak ` +
      `${r.peakRssMb} MB (+${r.rssGrowthMb} MB)`,
  );
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
  const dicomPort = await freePort();
  const ownerEmail = `stall-owner-${Date.now()}@example.org`;
  const app = await startPostgresBenchApp(
    {
      RATE_LIMIT_DISABLED: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // The node as deployed, every limit at its default (issue 36).
      DICOM_PORT: String(dicomPort),
      DICOM_OWNER_EMAIL: ownerEmail,
      DICOM_ALLOWED_CALLERS: 'STORESCU@127.0.0.1',
    },
    { worker: false },
  );
  const results: CaseResult[] = [];
  const dimse: DimseResult<THugePduOutcome | TIdleOutcome>[] = [];
  try {
    const token = await signUpBenchUser(app, 'stall');
    const baselineRssMb = procStatusMb(app.server.pid!, 'VmRSS');
    console.log(`server RSS after start and sign-up: ${baselineRssMb} MB`);
    const floor = await idle(app);
    console.log(
      `${floor.file.padEnd(46)} /healthz worst ${floor.worstProbeMs} ms, median ${floor.medianProbeMs} ms (${floor.probes} probes)`,
    );
    if (CASES.has('uploads'))
      for (const [name, make] of files) {
        const file = await make();
        const r = await upload(app, token, name, file);
        results.push(r);
        console.log(
          `${name.padEnd(46)} ${String(r.bytes).padStart(8)} B → ${r.status} "${r.message}" in ${r.uploadMs} ms; ` +
            `/healthz worst ${r.worstProbeMs} ms, median ${r.medianProbeMs} ms (${r.probes} probes); RSS peak ${r.peakRssMb} MB`,
        );
      }
    if (CASES.has('dimse')) {
      // The node takes associations once its owner is proven (issue 36, S11): as a person would.
      await signUpViaApi(app.url, { email: ownerEmail });
      await confirmDicomOwner(app);
      console.log(`DICOM node on port ${dicomPort}, owner proven through the mailed link`);
      for (const senders of HUGE_PDU_SENDERS) {
        const huge = await dimseCase(app, `huge PDU (${senders} sender(s), ${HUGE_PDU_SECONDS} s)`, () =>
          hugePduFlood({ port: dicomPort, concurrency: senders, ms: HUGE_PDU_SECONDS * 1000, pauseMs: 50 }),
        );
        printDimse(huge);
        dimse.push(huge);
      }
      const idleConns = await dimseCase(
        app,
        `idle connections (${IDLE_CONNECTIONS}, held ${IDLE_HOLD_SECONDS} s)`,
        () =>
          idleConnections({
            port: dicomPort,
            count: IDLE_CONNECTIONS,
            addresses: 200,
            wave: 256,
            holdMs: IDLE_HOLD_SECONDS * 1000,
          }),
      );
      printDimse(idleConns);
      dimse.push(idleConns);
    }
    const hostile = results.slice(0, 4);
    const summary = {
      bench: 'dicom-stall',
      ...(hostile.length
        ? {
            worstProbeMs: Math.max(...hostile.map((r) => r.worstProbeMs)),
            peakRssMb: Math.max(...hostile.map((r) => r.peakRssMb)),
            withinBudgetCase: { worstProbeMs: results[4]!.worstProbeMs, peakRssMb: results[4]!.peakRssMb },
          }
        : {}),
      baselineRssMb,
      noiseFloor: { worstProbeMs: floor.worstProbeMs, medianProbeMs: floor.medianProbeMs },
      targets: { worstProbeMs: 100, serverMemoryMb: 600 },
      cases: results,
      ...(dimse.length
        ? {
            dimse: {
              worstProbeMs: Math.max(...dimse.map((r) => r.worstProbeMs)),
              maxRssGrowthMb: Math.max(...dimse.map((r) => r.rssGrowthMb)),
              failedProbes: dimse.reduce((n, r) => n + r.failedProbes, 0),
              targets: DIMSE_TARGETS,
              cases: dimse,
            },
          }
        : {}),
      cores: availableParallelism(),
      loadAvgStart: loadStart,
      loadAvgEnd: loadAverage(),
    };
    if (hostile.length) {
      console.log(
        `four hostile files: worst /healthz ${summary.worstProbeMs} ms, server RSS peak ${summary.peakRssMb} MB`,
      );
      console.log(
        `the within-budget 7000×7000 8-bit file: worst /healthz ${summary.withinBudgetCase!.worstProbeMs} ms, server RSS peak ${summary.withinBudgetCase!.peakRssMb} MB`,
      );
    }
    for (const r of dimse)
      console.log(
        `${r.name}: worst /healthz ${r.worstProbeMs} ms (target < ${DIMSE_TARGETS.worstProbeMs}), server RSS +${r.rssGrowthMb} MB (target < ${DIMSE_TARGETS.rssGrowthMb})`,
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
