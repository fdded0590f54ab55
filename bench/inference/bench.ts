/**
 * npm run bench:inference [-- --iters 200 --batch 16]
 *
 * The shipped network on one CPU thread: onnxruntime-node (this process) versus PyTorch eager
 * (bench/inference/torch_bench.py under /usr/bin/python3, or $PYTHON), run one after the other
 * in the same invocation so both see the same machine. Prints a table and the speed-up.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { loadModel } from '../../worker/src/pipeline/load-model.js';

interface BenchResult {
  runtime: string;
  threads: number;
  medianMs: number;
  p90Ms: number;
  imagesPerSecBatch1: number;
  imagesPerSecBatched: number;
  batch: number;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function benchOnnx(modelPath: string, size: number, inputName: string, iters: number, batch: number): Promise<BenchResult> {
  const session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential' });
  const one = new ort.Tensor('float32', Float32Array.from({ length: size * size }, () => Math.random() * 2 - 1), [1, 1, size, size]);
  const many = new ort.Tensor('float32', Float32Array.from({ length: batch * size * size }, () => Math.random() * 2 - 1), [batch, 1, size, size]);
  for (let i = 0; i < 20; i++) await session.run({ [inputName]: one });
  const lat: number[] = [];
  for (let i = 0; i < iters; i++) {
    const t = performance.now();
    await session.run({ [inputName]: one });
    lat.push(performance.now() - t);
  }
  const reps = Math.max(3, Math.floor(iters / batch));
  const t = performance.now();
  for (let i = 0; i < reps; i++) await session.run({ [inputName]: many });
  const batched = (reps * batch * 1000) / (performance.now() - t);
  lat.sort((a, b) => a - b);
  const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
  return { runtime: `onnxruntime-node ${ort.env.versions.common}`, threads: 1, medianMs: lat[Math.floor(lat.length / 2)]!, p90Ms: lat[Math.floor(lat.length * 0.9)]!, imagesPerSecBatch1: 1000 / mean, imagesPerSecBatched: batched, batch };
}

function benchTorch(modelDir: string, iters: number, batch: number): BenchResult | string {
  const python = process.env.PYTHON ?? '/usr/bin/python3';
  try {
    const out = execFileSync(python, [path.join('bench', 'inference', 'torch_bench.py'), '--model', modelDir, '--iters', String(iters), '--batch', String(batch)], { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' } });
    return JSON.parse(out.trim().split('\n').pop()!) as BenchResult;
  } catch (err) {
    return `PyTorch side skipped (${python} with torch needed): ${(err as Error).message.split('\n')[0]}`;
  }
}

async function main(): Promise<void> {
  const iters = arg('iters', 200);
  const batch = arg('batch', 16);
  const model = await loadModel();
  const { height, name } = model.manifest.input;
  const onnx = await benchOnnx(model.modelPath, height, name, iters, batch);
  const torch = benchTorch(model.dir, iters, batch);
  const rows = [onnx, ...(typeof torch === 'string' ? [] : [torch])];
  console.log(`model ${model.manifest.modelName} ${model.manifest.modelVersion}, input 1x${height}x${height}, ${iters} timed runs, 1 thread`);
  console.table(rows.map((r) => ({ runtime: r.runtime, 'batch-1 median ms': r.medianMs.toFixed(2), 'batch-1 p90 ms': r.p90Ms.toFixed(2), 'img/s batch 1': r.imagesPerSecBatch1.toFixed(1), [`img/s batch ${batch}`]: r.imagesPerSecBatched.toFixed(1) })));
  if (typeof torch === 'string') {
    console.log(torch);
    return;
  }
  console.log(`onnxruntime-node vs PyTorch eager: ${(torch.medianMs / onnx.medianMs).toFixed(2)}x faster at batch 1 (median latency), ${(onnx.imagesPerSecBatched / torch.imagesPerSecBatched).toFixed(2)}x the throughput at batch ${batch}`);
  console.log(JSON.stringify({ onnx, torch }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
