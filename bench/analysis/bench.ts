/**
 * npm run bench:analysis [-- --images 30 --chat 20]
 *
 * The product's main job measured from the outside: the real app as separate processes (server
 * and worker, like `npm start`), a real account, and 30 real radiographs (the shared data set's
 * test split, else the committed fixtures; make-images.ts says which), upscaled at run time to
 * 1-3 megapixels (nothing is written to the repo).
 *
 * Prints: upload → stored report latency (p50/p95, one request at a time, through the spec's
 * REST call that answers once the report is stored); where that time goes, stage by stage (the
 * timestamps both BullMQ jobs carry, the worker's own stage times, and the server's upload
 * stages and the pure pipeline re-measured in this process); throughput with WORKER_CONCURRENCY
 * 1 and 2 and with two worker processes (all uploads in flight, counting lost and duplicated
 * reports); the grounded chat's first-token latency over the tRPC stream. The last line is JSON.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startE2eApp, type E2eApp } from '../../tests/helpers/e2e-app.js';
import { PATIENT } from '../../tests/analysis/support/fixtures.js';
import { multipart } from '../../tests/helpers/post-multipart.js';
import { loadAverage } from '../lib/read-load-average.js';
import { signUpBenchUser } from '../lib/start-bench-app.js';
import { percentile } from '../load/stats.js';
import { makeImages, type BenchImage } from './make-images.js';
import { measurePipeline } from './measure-pipeline.js';
import { measureUploadStages } from './measure-upload-stages.js';
import { jobTimelineReader, type JobTimeline } from './read-job-timeline.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('images', 30);
const CHAT_N = arg('chat', 20);
const MODEL_DIR = process.env.MODEL_DIR ?? 'models/cxr';
const modelDir = existsSync(join(MODEL_DIR, 'manifest.json')) ? MODEL_DIR : 'tests/fixtures/tiny-model';
/** An analysis not finished this long after the last upload counts as lost. */
const LOST_AFTER_MS = 180_000;

const median = (xs: number[]) => percentile(xs, 50);
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function analyse(app: E2eApp, token: string, image: Buffer, wait = true) {
  const body = multipart([
    { name: 'profile', value: JSON.stringify(PATIENT) },
    { name: 'image', value: image, filename: 'xray.jpg', type: 'image/jpeg' },
  ]);
  const start = Date.now();
  const t0 = performance.now();
  const res = await fetch(`${app.url}/api/chat/analyzer${wait ? '' : '?wait=0'}`, {
    method: 'POST',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    body: body.payload,
  });
  const json = (await res.json()) as {
    data?: { chat_id: string; analysis_id: string; status: string };
    message?: string;
  };
  if (!json.data) throw new Error(`upload failed: ${res.status} ${json.message ?? ''}`);
  return { ...json.data, ms: performance.now() - t0, start, end: Date.now() };
}

async function trpcGet<T>(app: E2eApp, token: string, path: string, input: object): Promise<T> {
  const res = await fetch(`${app.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const json = (await res.json()) as { result: { data: T } };
  return json.result.data;
}

/** Waits for a final status; false when it has none by `deadline`. */
async function waitDone(app: E2eApp, token: string, analysisId: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const a = await trpcGet<{ status: string }>(app, token, 'analysis.get', { analysisId });
    if (['completed', 'refused', 'failed'].includes(a.status)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Reports stored in a chat: exactly one per finished analysis, or it was duplicated. */
async function reportsIn(app: E2eApp, token: string, chatId: string): Promise<number> {
  const chat = await trpcGet<{ messages: { role: string }[] }>(app, token, 'history.get', { chatId, limit: 200 });
  return chat.messages.filter((m) => m.role === 'assistant').length;
}

/** POST chat.ask, then read the SSE stream of chat.onReply until the first token. */
async function firstToken(
  app: E2eApp,
  token: string,
  chatId: string,
  query: string,
): Promise<{ ask: number; first: number; total: number }> {
  const t0 = performance.now();
  const ask = await fetch(`${app.url}/trpc/chat.ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ chatId, query }),
  });
  const { streamId } = ((await ask.json()) as { result: { data: { streamId: string } } }).result.data;
  const askMs = performance.now() - t0;
  const res = await fetch(`${app.url}/trpc/chat.onReply?input=${encodeURIComponent(JSON.stringify({ streamId }))}`, {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(first) && text.includes('"type":"token"')) first = performance.now() - t0;
    if (text.includes('"type":"done"')) break;
  }
  await reader.cancel();
  return { ask: askMs, first, total: performance.now() - t0 };
}

interface RunResult {
  latencies: number[];
  stages: Record<string, number[]>;
  throughput: number;
  lost: number;
  duplicated: number;
  chat?: { ask: number[]; first: number[]; total: number[] };
}

async function run(
  concurrency: number,
  images: BenchImage[],
  measureLatency: boolean,
  extraWorkers = 0,
): Promise<RunResult> {
  const app = await startE2eApp({
    WORKER_CONCURRENCY: String(concurrency),
    MODEL_DIR: modelDir,
    RATE_LIMIT_DISABLED: 'true',
    LOG_LEVEL: 'warn',
  });
  // More worker processes on the same Redis, as a second host would run them.
  const extra = Array.from({ length: extraWorkers }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], { env: app.env, stdio: 'ignore' }),
  );
  const timeline = jobTimelineReader(app.env.REDIS_URL!, app.queuePrefix);
  try {
    const token = await signUpBenchUser(app);
    // Warm-up: each worker loads the model on its first job.
    await Promise.all(Array.from({ length: 1 + extraWorkers }, () => analyse(app, token, images[0]!.data)));
    const out: RunResult = { latencies: [], stages: {}, throughput: 0, lost: 0, duplicated: 0 };
    const push = (k: string, v: number) => (out.stages[k] ??= []).push(v);
    let chatId = '';
    if (measureLatency) {
      for (const img of images) {
        const r = await analyse(app, token, img.data);
        out.latencies.push(r.ms);
        chatId = r.status === 'completed' ? r.chat_id : chatId;
        const a = await trpcGet<{ result: { timingsMs: Record<string, number> } | null }>(app, token, 'analysis.get', {
          analysisId: r.analysis_id,
        });
        for (const [k, v] of Object.entries(a.result?.timingsMs ?? {})) push(`worker: ${k}`, v);
        const t: JobTimeline | null = await timeline.read(r.analysis_id, r.start, r.end);
        if (t) for (const [k, v] of Object.entries(t)) push(`jobs: ${k}`, v);
      }
      out.chat = { ask: [], first: [], total: [] };
      const questions = [
        'How confident is the model?',
        'What should we do next?',
        'Could it be tuberculosis?',
        'Explain it to the patient',
        'Is the image quality ok?',
      ];
      for (let i = 0; i < CHAT_N && chatId; i++) {
        const r = await firstToken(app, token, chatId, questions[i % questions.length]!);
        out.chat.ask.push(r.ask);
        out.chat.first.push(r.first);
        out.chat.total.push(r.total);
      }
    }
    // Throughput: every upload in flight at once, until the last report is stored.
    const t0 = performance.now();
    const queued = await Promise.all(images.map((img) => analyse(app, token, img.data, false)));
    const deadline = Date.now() + LOST_AFTER_MS;
    const finished = await Promise.all(queued.map((q) => waitDone(app, token, q.analysis_id, deadline)));
    out.throughput = images.length / ((performance.now() - t0) / 1000);
    out.lost = finished.filter((f) => !f).length;
    const reports = await Promise.all(queued.map((q) => reportsIn(app, token, q.chat_id)));
    out.duplicated = reports.filter((n) => n > 1).length;
    return out;
  } finally {
    await timeline.close();
    for (const w of extra) w.kill('SIGTERM');
    await app.close();
  }
}

/** Stages in the order an analysis passes them; any others follow as recorded. */
const ORDER = [
  'jobs: uploadLeg',
  'jobs: analysisQueueHop',
  'jobs: worker',
  'worker: readMs',
  'worker: decode',
  'worker: preprocess',
  'worker: anatomy',
  'worker: measure',
  'worker: crop',
  'worker: classifier',
  'worker: inference',
  'worker: compose',
  'worker: total',
  'worker: pipelineMs',
  'worker: overlayMs',
  'worker: heatGridsMs',
  'worker: workerTotalMs',
  'jobs: resultQueueHop',
  'jobs: finalize',
  'jobs: reply',
];
const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);

function printStages(title: string, stages: Record<string, number[]>): void {
  console.log(`\n${title} (median / p95)`);
  const keys = Object.keys(stages).sort((a, b) => rank(a) - rank(b));
  for (const k of keys)
    console.log(`  ${k.padEnd(56)} ${ms(median(stages[k]!)).padStart(8)} / ${ms(percentile(stages[k]!, 95))}`);
}

async function main(): Promise<void> {
  const { images, source } = await makeImages(N);
  const mp = images.map((i) => i.megapixels);
  console.log(
    `bench:analysis — ${images.length} radiographs, ${Math.min(...mp).toFixed(2)}-${Math.max(...mp).toFixed(2)} MP, model ${modelDir}`,
  );
  console.log(`images: ${source}`);
  const loadStart = loadAverage();
  console.log(
    `load average at start (1/5/15 min): ${loadStart} on ${(await import('node:os')).availableParallelism()} cores`,
  );

  const pure = await measurePipeline(modelDir, images);
  const upload = await measureUploadStages(images);
  const one = await run(1, images, true);
  const two = await run(2, images, false);
  const twoProcs = await run(1, images, false, 1);

  console.log('\nupload → stored report (REST /api/chat/analyzer, one at a time, WORKER_CONCURRENCY=1)');
  console.log(
    `  p50 ${ms(percentile(one.latencies, 50))}   p95 ${ms(percentile(one.latencies, 95))}   max ${ms(Math.max(...one.latencies))}`,
  );
  printStages("where it goes: job timestamps and the worker's stage times, in the app", one.stages);
  printStages('server upload stages, re-measured in this process', upload);
  printStages('worker pipeline, re-measured in this process', pure.stages);
  for (const coding of ['image/jpeg', 'image/png'] as const) {
    const renders = pure.overlay.filter((o) => o.coding === coding);
    if (!renders.length) continue;
    const all = renders.map((o) => o.ms);
    const big = renders.filter((o) => o.megapixels >= 2.5).map((o) => o.ms);
    const name = coding === 'image/jpeg' ? 'JPEG' : 'PNG';
    console.log(
      `  overlay render as ${name} (all sizes)${' '.repeat(27 - name.length)}${ms(median(all)).padStart(8)} / ${ms(percentile(all, 95))}`,
    );
    console.log(
      `  overlay render as ${name} at 2.5-3 MP (${big.length} films)${' '.repeat(18 - name.length)}${ms(median(big)).padStart(8)} / ${ms(percentile(big, 95))}`,
    );
  }

  console.log('\nthroughput (all uploads in flight)');
  const line = (name: string, r: RunResult) =>
    console.log(`  ${name}: ${r.throughput.toFixed(2)} analyses/s   lost ${r.lost}, duplicated ${r.duplicated}`);
  line('WORKER_CONCURRENCY=1', one);
  line('WORKER_CONCURRENCY=2', two);
  line('2 worker processes, WORKER_CONCURRENCY=1 each', twoProcs);
  if (one.chat?.first.length) {
    console.log(`\ngrounded chat over tRPC (chat.ask + chat.onReply SSE), ${one.chat.first.length} questions`);
    console.log(`  chat.ask (POST) p50 ${ms(percentile(one.chat.ask, 50))}   p95 ${ms(percentile(one.chat.ask, 95))}`);
    console.log(`  first token p50 ${ms(percentile(one.chat.first, 50))}   p95 ${ms(percentile(one.chat.first, 95))}`);
    console.log(`  whole reply p50 ${ms(percentile(one.chat.total, 50))}   p95 ${ms(percentile(one.chat.total, 95))}`);
  }
  const loadEnd = loadAverage();
  console.log(`\nload average at end (1/5/15 min): ${loadEnd}`);
  const round = (x: number) => Math.round(x * 10) / 10;
  // Where the time goes, as medians: the app's stages (job timestamps, worker stages) and the pure pipeline's.
  const medians = (stages: Record<string, number[]>) =>
    Object.fromEntries(
      Object.keys(stages)
        .sort((a, b) => rank(a) - rank(b))
        .map((k) => [k, round(median(stages[k]!))]),
    );
  console.log(
    JSON.stringify({
      p50Ms: round(percentile(one.latencies, 50)),
      p95Ms: round(percentile(one.latencies, 95)),
      overlayMedianMs: round(median(one.stages['worker: overlayMs'] ?? [])),
      pipelineMedianMs: round(median(one.stages['worker: pipelineMs'] ?? [])),
      throughput2Workers: round(twoProcs.throughput),
      lost2Workers: twoProcs.lost,
      duplicated2Workers: twoProcs.duplicated,
      loadStart,
      loadEnd,
      stageMedianMs: { ...medians(one.stages), ...medians(pure.stages) },
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
