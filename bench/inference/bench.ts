/**
 * npm run bench:inference [-- --iters 200 --batch 16 --pipeline-iters 20]
 *
 * The model under test (MODEL_DIR, else models/cxr) on one CPU thread:
 *  - each network alone (onnxruntime-node, batch 1 latency and batched throughput): for model 2
 *    the anatomy net and the classifier, for model 1 the one network;
 *  - the whole pipeline (decode, checks, preprocessing, every net, calibration, anatomy
 *    measurements, outlines, heatmaps) on radiographs of 1 to 3 megapixels (the fixture films
 *    upscaled, JPEG and PNG), with the median of each stage;
 *  - for model 1, PyTorch eager on the same network (bench/inference/torch_bench.py under
 *    /usr/bin/python3, or $PYTHON) for comparison.
 * Prints tables; the last line is JSON.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import type { LoadedModel, ManifestInput } from '../../worker/src/pipeline/types.js';

interface BenchResult {
  runtime: string;
  threads: number;
  medianMs: number;
  p90Ms: number;
  imagesPerSecBatch1: number;
  /** null when the graph has a fixed batch of 1 (model 2's exports). */
  imagesPerSecBatched: number | null;
  batch: number;
}

// 1.0, 2.0 and 3.0 megapixels at a film's usual 5:4 / 4:5 shapes.
const SIZES: [number, number][] = [
  [1120, 896],
  [1264, 1580],
  [1936, 1549],
];
const FILMS = [
  'tests/fixtures/xray/covid-1.jpg',
  'tests/fixtures/cxr/normal-covid-normal-6288.jpg',
  'tests/fixtures/cxr/pneumonia-viral-kermany-person1200-virus-2042.jpg',
];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function benchOnnx(file: string, spec: ManifestInput, iters: number, batch: number): Promise<BenchResult> {
  const session = await ort.InferenceSession.create(file, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const { channels: c, height: h, width: w, name } = spec;
  const one = new ort.Tensor(
    'float32',
    Float32Array.from({ length: c * h * w }, () => Math.random() * 2 - 1),
    [1, c, h, w],
  );
  const many = new ort.Tensor(
    'float32',
    Float32Array.from({ length: batch * c * h * w }, () => Math.random() * 2 - 1),
    [batch, c, h, w],
  );
  for (let i = 0; i < 20; i++) await session.run({ [name]: one });
  const lat: number[] = [];
  for (let i = 0; i < iters; i++) {
    const t = performance.now();
    await session.run({ [name]: one });
    lat.push(performance.now() - t);
  }
  const reps = Math.max(3, Math.floor(iters / batch));
  let batched: number | null = null;
  try {
    await session.run({ [name]: many });
    const t = performance.now();
    for (let i = 0; i < reps; i++) await session.run({ [name]: many });
    batched = (reps * batch * 1000) / (performance.now() - t);
  } catch {
    // fixed batch dimension
  }
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  return {
    runtime: `onnxruntime-node ${ort.env.versions.common}`,
    threads: 1,
    medianMs: median(lat),
    p90Ms: p90(lat),
    imagesPerSecBatch1: 1000 / mean,
    imagesPerSecBatched: batched,
    batch,
  };
}

function benchTorch(modelDir: string, iters: number, batch: number): BenchResult | string {
  const python = process.env.PYTHON ?? '/usr/bin/python3';
  try {
    const out = execFileSync(
      python,
      [
        path.join('bench', 'inference', 'torch_bench.py'),
        '--model',
        modelDir,
        '--iters',
        String(iters),
        '--batch',
        String(batch),
      ],
      { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } },
    );
    return JSON.parse(out.trim().split('\n').pop()!) as BenchResult;
  } catch (err) {
    return `PyTorch side skipped (${python} with torch needed): ${(err as Error).message.split('\n')[0]}`;
  }
}

/** The fixture films upscaled to 1-3 MP, as JPEG (quality 90) and PNG uploads. */
async function testImages(): Promise<{ name: string; megapixels: number; buf: Buffer }[]> {
  const out: { name: string; megapixels: number; buf: Buffer }[] = [];
  for (const [k, [w, h]] of SIZES.entries()) {
    const film = sharp(await readFile(FILMS[k % FILMS.length]!))
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .greyscale();
    const megapixels = Math.round((w * h) / 1e4) / 100;
    out.push({ name: `${w}x${h}.jpg`, megapixels, buf: await film.clone().jpeg({ quality: 90 }).toBuffer() });
    out.push({ name: `${w}x${h}.png`, megapixels, buf: await film.clone().png().toBuffer() });
  }
  return out;
}

async function benchPipeline(model: LoadedModel, iters: number) {
  const images = await testImages();
  const all: number[] = [];
  // CPU time of the process per image: close to the wall time on an idle core, and much less
  // affected than the wall time when other work shares the CPU.
  const cpu: number[] = [];
  const stages = new Map<string, number[]>();
  const perImage: { image: string; megapixels: number; accepted: boolean; medianMs: number }[] = [];
  for (const im of images) {
    const first = await runPipeline(im.buf, model); // warm-up (and sessions created)
    const lat: number[] = [];
    for (let i = 0; i < iters; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      const r = await runPipeline(im.buf, model);
      lat.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      for (const [k, v] of Object.entries(r.timingsMs)) stages.set(k, [...(stages.get(k) ?? []), v]);
    }
    all.push(...lat);
    perImage.push({ image: im.name, megapixels: im.megapixels, accepted: first.gate.accepted, medianMs: median(lat) });
  }
  const stageMedians = Object.fromEntries([...stages].filter(([k]) => k !== 'total').map(([k, v]) => [k, median(v)]));
  return { medianMs: median(all), p90Ms: p90(all), cpuMedianMs: median(cpu), runs: all.length, perImage, stageMedians };
}

async function main(): Promise<void> {
  const iters = arg('iters', 200);
  const batch = arg('batch', 16);
  const pipelineIters = arg('pipeline-iters', 20);
  sharp.concurrency(1); // one thread for decoding too
  const model = await loadModel(loadBaseConfig().MODEL_DIR);
  const { manifest } = model;
  const nets: Record<string, BenchResult> = {};
  if (manifest.anatomy && model.anatomyPath)
    nets.anatomy = await benchOnnx(model.anatomyPath, manifest.anatomy.input, iters, batch);
  nets.classifier = await benchOnnx(model.modelPath, manifest.input, iters, batch);
  const pipeline = await benchPipeline(model, pipelineIters);
  const torch =
    !manifest.anatomy && existsSync(path.join(model.dir, 'model.pt'))
      ? benchTorch(model.dir, iters, batch)
      : 'PyTorch side: model 1 only';

  console.log(
    `model ${manifest.modelName} ${manifest.modelVersion}, 1 thread (onnxruntime intra-op 1, sharp concurrency 1), load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
  );
  console.table(
    Object.entries(nets).map(([net, r]) => ({
      net,
      input: `${manifest.anatomy && net === 'anatomy' ? manifest.anatomy.input.height : manifest.input.height} px`,
      'batch-1 median ms': r.medianMs.toFixed(2),
      'batch-1 p90 ms': r.p90Ms.toFixed(2),
      'img/s batch 1': r.imagesPerSecBatch1.toFixed(1),
      [`img/s batch ${batch}`]: r.imagesPerSecBatched?.toFixed(1) ?? 'fixed batch 1',
    })),
  );
  console.log(
    `whole pipeline per image (1-3 MP, ${pipeline.runs} runs): median ${pipeline.medianMs.toFixed(1)} ms, p90 ${pipeline.p90Ms.toFixed(1)} ms wall; median ${pipeline.cpuMedianMs.toFixed(1)} ms CPU`,
  );
  console.table(
    pipeline.perImage.map((r) => ({
      image: r.image,
      MP: r.megapixels,
      accepted: r.accepted,
      'median ms': r.medianMs.toFixed(1),
    })),
  );
  console.log('stage medians (ms):', JSON.stringify(pipeline.stageMedians));
  if (typeof torch === 'string') console.log(torch);
  else
    console.log(
      `onnxruntime-node vs PyTorch eager: ${(torch.medianMs / nets.classifier.medianMs).toFixed(2)}x faster at batch 1 (median latency), ${((nets.classifier.imagesPerSecBatched ?? NaN) / (torch.imagesPerSecBatched ?? NaN)).toFixed(2)}x the throughput at batch ${batch}`,
    );
  console.log(
    JSON.stringify({
      model: `${manifest.modelName} ${manifest.modelVersion}`,
      threads: 1,
      loadAverage: os.loadavg()[0],
      cpus: os.cpus().length,
      nets,
      pipeline,
      ...(typeof torch === 'string' ? {} : { torch }),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
