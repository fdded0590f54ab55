/**
 * npm run bench:analysis [-- --images 30 --chat 20]
 *
 * The product's main job measured from the outside: the real app as separate processes (server
 * and worker, like `npm start`), a real account, and 30 real radiographs from the test split of
 * the shared dataset, upscaled at run time to 1-3 megapixels (nothing is written to the repo).
 *
 * Prints: upload → stored report latency (p50/p95, one request at a time, through the spec's
 * REST call that answers once the report is stored), the time per stage as the worker and the
 * pipeline recorded it, throughput with WORKER_CONCURRENCY 1 and 2 (all uploads in flight), and
 * the grounded chat's first-token latency over the tRPC stream.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { startE2eApp, type E2eApp } from '../../tests/helpers/e2e-app.js';
import { multipart, PATIENT, testRadiographs } from '../../tests/analysis/support/fixtures.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('images', 30);
const CHAT_N = arg('chat', 20);
const MODEL_DIR = process.env.MODEL_DIR ?? 'models/cxr';
const modelDir = existsSync(join(MODEL_DIR, 'manifest.json')) ? MODEL_DIR : 'tests/fixtures/tiny-model';

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;

/** 30 radiographs of mixed labels, each upscaled to between 1 and 3 megapixels. */
async function makeImages(): Promise<{ data: Buffer; megapixels: number }[]> {
  const files = [...testRadiographs('normal', 10), ...testRadiographs('pneumonia', 10), ...testRadiographs('covid19', 10)];
  const out: { data: Buffer; megapixels: number }[] = [];
  for (let i = 0; i < N; i++) {
    const w = Math.round(960 + ((1650 - 960) * i) / Math.max(1, N - 1));
    const h = Math.round(w * 1.1);
    const data = await sharp(files[i % files.length]!).resize(w, h, { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
    out.push({ data, megapixels: (w * h) / 1e6 });
  }
  return out;
}

async function signUp(app: E2eApp): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench Clinician', email: `bench-${Date.now()}@example.org`, password: 'bench password 123' }),
  });
  const json = (await res.json()) as { token?: string; message?: string };
  if (!json.token) throw new Error(`signup failed: ${json.message ?? res.status}`);
  return json.token;
}

async function analyse(app: E2eApp, token: string, image: Buffer, wait = true) {
  const body = multipart([
    { name: 'profile', value: JSON.stringify(PATIENT) },
    { name: 'image', value: image, filename: 'xray.jpg', type: 'image/jpeg' },
  ]);
  const t0 = performance.now();
  const res = await fetch(`${app.url}/api/chat/analyzer${wait ? '' : '?wait=0'}`, {
    method: 'POST', headers: { ...body.headers, authorization: `Bearer ${token}` }, body: body.payload,
  });
  const json = (await res.json()) as { data?: { chat_id: string; analysis_id: string; status: string }; message?: string };
  if (!json.data) throw new Error(`upload failed: ${res.status} ${json.message ?? ''}`);
  return { ...json.data, ms: performance.now() - t0 };
}

async function trpcGet<T>(app: E2eApp, token: string, path: string, input: object): Promise<T> {
  const res = await fetch(`${app.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { authorization: `Bearer ${token}` } });
  const json = (await res.json()) as { result: { data: T } };
  return json.result.data;
}

async function waitDone(app: E2eApp, token: string, analysisId: string): Promise<void> {
  for (;;) {
    const a = await trpcGet<{ status: string }>(app, token, 'analysis.get', { analysisId });
    if (['completed', 'refused', 'failed'].includes(a.status)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** POST chat.ask, then read the SSE stream of chat.onReply until the first token. */
async function firstToken(app: E2eApp, token: string, chatId: string, query: string): Promise<{ ask: number; first: number; total: number }> {
  const t0 = performance.now();
  const ask = await fetch(`${app.url}/trpc/chat.ask`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ chatId, query }),
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

async function run(concurrency: number, images: { data: Buffer }[], measureLatency: boolean, extraWorkers = 0) {
  const app = await startE2eApp({ WORKER_CONCURRENCY: String(concurrency), MODEL_DIR: modelDir, RATE_LIMIT_DISABLED: 'true', LOG_LEVEL: 'warn' });
  // More worker processes on the same Redis, as a second host would run them.
  const extra = Array.from({ length: extraWorkers }, () => spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], { env: app.env, stdio: 'ignore' }));
  try {
    const token = await signUp(app);
    // Warm-up: the worker loads the model on its first job.
    await analyse(app, token, images[0]!.data);
    const out: { latencies: number[]; stages: Record<string, number[]>; throughput: number; chat?: { ask: number[]; first: number[]; total: number[] } } = { latencies: [], stages: {}, throughput: 0 };
    let chatId = '';
    if (measureLatency) {
      for (const img of images) {
        const r = await analyse(app, token, img.data);
        out.latencies.push(r.ms);
        chatId = r.status === 'completed' ? r.chat_id : chatId;
        const a = await trpcGet<{ result: { timingsMs: Record<string, number> } | null }>(app, token, 'analysis.get', { analysisId: r.analysis_id });
        for (const [k, v] of Object.entries(a.result?.timingsMs ?? {})) (out.stages[k] ??= []).push(v);
        (out.stages['end-to-end minus worker (upload, queue, finalize)'] ??= []).push(r.ms - (a.result?.timingsMs.workerTotalMs ?? 0));
      }
      out.chat = { ask: [], first: [], total: [] };
      const questions = ['How confident is the model?', 'What should we do next?', 'Could it be tuberculosis?', 'Explain it to the patient', 'Is the image quality ok?'];
      for (let i = 0; i < CHAT_N; i++) {
        const r = await firstToken(app, token, chatId, questions[i % questions.length]!);
        out.chat.ask.push(r.ask);
        out.chat.first.push(r.first);
        out.chat.total.push(r.total);
      }
    }
    // Throughput: every upload in flight at once, until the last report is stored.
    const t0 = performance.now();
    const queued = await Promise.all(images.map((img) => analyse(app, token, img.data, false)));
    for (const q of queued) await waitDone(app, token, q.analysis_id);
    out.throughput = images.length / ((performance.now() - t0) / 1000);
    return out;
  } finally {
    for (const w of extra) w.kill('SIGTERM');
    await app.close();
  }
}

async function main(): Promise<void> {
  const images = await makeImages();
  const mp = images.map((i) => i.megapixels);
  console.log(`bench:analysis — ${images.length} radiographs, ${Math.min(...mp).toFixed(2)}-${Math.max(...mp).toFixed(2)} MP, model ${modelDir}`);
  const one = await run(1, images, true);
  const two = await run(2, images, false);
  const twoProcs = await run(1, images, false, 1);
  console.log('\nupload → stored report (REST /api/chat/analyzer, one at a time, WORKER_CONCURRENCY=1)');
  console.log(`  p50 ${ms(quantile(one.latencies, 0.5))}   p95 ${ms(quantile(one.latencies, 0.95))}   max ${ms(Math.max(...one.latencies))}`);
  console.log('\ntime per stage (median / p95)');
  for (const [k, v] of Object.entries(one.stages)) console.log(`  ${k.padEnd(52)} ${ms(quantile(v, 0.5)).padStart(8)} / ${ms(quantile(v, 0.95))}`);
  console.log('\nthroughput (all uploads in flight)');
  console.log(`  WORKER_CONCURRENCY=1: ${one.throughput.toFixed(2)} analyses/s`);
  console.log(`  WORKER_CONCURRENCY=2: ${two.throughput.toFixed(2)} analyses/s`);
  console.log(`  2 worker processes, WORKER_CONCURRENCY=1 each: ${twoProcs.throughput.toFixed(2)} analyses/s`);
  if (one.chat) {
    console.log(`\ngrounded chat over tRPC (chat.ask + chat.onReply SSE), ${CHAT_N} questions`);
    console.log(`  chat.ask (POST) p50 ${ms(quantile(one.chat.ask, 0.5))}   p95 ${ms(quantile(one.chat.ask, 0.95))}`);
    console.log(`  first token p50 ${ms(quantile(one.chat.first, 0.5))}   p95 ${ms(quantile(one.chat.first, 0.95))}`);
    console.log(`  whole reply p50 ${ms(quantile(one.chat.total, 0.5))}   p95 ${ms(quantile(one.chat.total, 0.95))}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
