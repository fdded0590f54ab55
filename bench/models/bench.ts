/**
 * npm run bench:models [-- --films 8] [--busy N]
 *
 * Issue 47: what one shadow model costs the worker. A DenseNet-121-sized graph (about 8 M
 * parameters and 3 G multiply-adds at 1 x 224 x 224, plain 3x3 convolutions with random weights,
 * written by tests/helpers/onnx-graph.ts: no weights are downloaded) is imported through the
 * real `model import` as a torchxrayvision-contract model; then the shipped model's pipeline runs
 * on the fixture films alone, and again while a second process runs the shadow's pipeline without
 * a pause (the worst case: a queue of shadow work), once at niceness 0 and once at 19, as the
 * worker's shadow process runs (SHADOW_NICE), one ORT thread each. Prints the live report latency
 * (median, p90) each way, the shadow's own time per study, the worker's resident memory with the
 * live model, and the shadow process's, against the registry's estimate (twice the ONNX files).
 * `--busy N` runs N CPU-bound processes at niceness 0 beside all of it (a machine with other work:
 * where a shadow's priority matters), so that figure can be rerun too. The last line is JSON.
 */
import { fork, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importModel } from '../../worker/src/models/import-model.js';
import { ANATOMY_STAGE_FILE } from '@contracts/model/registry.js';
import { memoryMbOf } from '../../server/src/services/models/read-registry-models.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { encodeOnnx, randomWeights, type TOnnxNode, type TOnnxTensor } from '../../tests/helpers/onnx-graph.js';

const { values } = parseArgs({ options: { films: { type: 'string' }, busy: { type: 'string' } } });
const N = Number(values.films ?? 8);
const BUSY = Number(values.busy ?? 0);

/** [in, out, stride] of each 3x3 convolution after the 7x7 stem (1 -> 64, stride 2). */
const LAYERS: [number, number, number][] = [
  [64, 128, 2],
  [128, 128, 1],
  [128, 128, 1],
  [128, 256, 2],
  [256, 256, 1],
  [256, 256, 1],
  [256, 512, 2],
  [512, 512, 1],
  [512, 512, 2],
];

function denseNetSized(): { bytes: Uint8Array; params: number; macs: number } {
  const nodes: TOnnxNode[] = [];
  const inits: TOnnxTensor[] = [];
  let params = 0;
  let macs = 0;
  let side = 224;
  let x = 'image';
  const conv = (i: number, cin: number, cout: number, k: number, stride: number, scale: number) => {
    const w = `w${i}`;
    inits.push({ name: w, dims: [cout, cin, k, k], data: randomWeights(cout * cin * k * k, 100 + i, scale) });
    inits.push({ name: `b${i}`, dims: [cout], data: new Float32Array(cout) });
    const pad = (k - 1) / 2;
    nodes.push({
      op: 'Conv',
      inputs: [x, w, `b${i}`],
      outputs: [`c${i}`],
      attrs: { kernel_shape: { ints: [k, k] }, strides: { ints: [stride, stride] }, pads: { ints: [pad, pad, pad, pad] } },
    });
    nodes.push({ op: 'Relu', inputs: [`c${i}`], outputs: [`r${i}`] });
    side = Math.ceil(side / stride);
    params += cout * cin * k * k + cout;
    macs += side * side * cout * cin * k * k;
    x = `r${i}`;
  };
  conv(0, 1, 64, 7, 2, 1 / 2048);
  LAYERS.forEach(([cin, cout, s], i) => conv(i + 1, cin, cout, 3, s, Math.sqrt(6 / (cin * 9))));
  nodes.push({ op: 'GlobalAveragePool', inputs: [x], outputs: ['gap'] });
  nodes.push({ op: 'Flatten', inputs: ['gap'], outputs: ['flat'], attrs: { axis: { i: 1 } } });
  inits.push({ name: 'fc_w', dims: [512, 18], data: randomWeights(512 * 18, 7, 0.05) });
  inits.push({ name: 'fc_b', dims: [18], data: new Float32Array(18) });
  nodes.push({ op: 'Gemm', inputs: ['flat', 'fc_w', 'fc_b'], outputs: ['logits'] });
  params += 512 * 18 + 18;
  const bytes = encodeOnnx({
    opset: 17,
    nodes,
    initializers: inits,
    inputs: [{ name: 'image', shape: [1, 1, 224, 224] }],
    outputs: [{ name: 'logits', shape: [1, 18] }],
  });
  return { bytes, params, macs };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) => round1([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
const p90 = (xs: number[]) => round1([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!);
const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

/**
 * The live pipeline on every film while bench/models/run-shadow-loop.ts runs the shadow's pipeline
 * without a pause in a process of its own at `nice`: the live times, the shadow's, its RSS.
 */
async function liveBesideShadow(
  shadowDir: string,
  nice: number,
  films: Buffer[],
  live: Awaited<ReturnType<typeof loadModel>>,
): Promise<{ live: number[]; shadow: number[]; rssMb: number }> {
  const child = fork(fileURLToPath(new URL('./run-shadow-loop.ts', import.meta.url)), [shadowDir, String(nice)], {
    execArgv: ['--import', 'tsx'],
  });
  const shadow: number[] = [];
  const rss = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean; rssMb?: number; ms?: number }) => {
      if (m.ready) resolve(m.rssMb ?? 0);
      else if (m.ms !== undefined) shadow.push(m.ms);
    });
    child.once('exit', (code) => reject(new Error(`shadow loop exited (${code})`)));
  });
  const times: number[] = [];
  for (const film of films) {
    const t = performance.now();
    await runPipeline(film, live);
    times.push(performance.now() - t);
  }
  child.removeAllListeners('exit');
  child.kill('SIGKILL');
  return { live: times, shadow, rssMb: rss };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'cxr-bench-models-'));
  // Other work on the machine, at the live worker's own priority.
  const busy = Array.from({ length: BUSY }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    const graph = denseNetSized();
    const file = path.join(work, 'densenet-sized.onnx');
    await writeFile(file, graph.bytes);
    const registry = path.join(work, 'models');
    const t0 = performance.now();
    await importModel({
      file,
      contract: 'torchxrayvision',
      name: 'densenet-sized',
      registryDir: registry,
      shippedDir: 'models/cxr',
      maxBytes: 512 * 1024 * 1024,
      importedBy: 'bench',
    });
    const importMs = performance.now() - t0;
    const fixtures = (await import('node:fs')).readdirSync('tests/fixtures/cxr').filter((f) => f.endsWith('.jpg'));
    const films = await Promise.all(
      Array.from({ length: N }, (_, i) => readFile(path.join('tests/fixtures/cxr', fixtures[i % fixtures.length]!))),
    );

    const live = await loadModel('models/cxr');
    await runPipeline(films[0]!, live); // warm-up: sessions created
    const rssLiveOnly = rssMb();
    const alone: number[] = [];
    for (const film of films) {
      const t = performance.now();
      await runPipeline(film, live);
      alone.push(performance.now() - t);
    }

    const shadowDir = path.join(registry, 'densenet-sized');
    const niceNormal = await liveBesideShadow(shadowDir, 0, films, live);
    const niceLowest = await liveBesideShadow(shadowDir, 19, films, live);

    const out = {
      bench: 'models',
      films: N,
      busyProcesses: BUSY,
      cpus: os.cpus().length,
      graph: {
        params: graph.params,
        gmacs: Math.round(graph.macs / 1e7) / 100,
        fileMb: Math.round((graph.bytes.length / 1024 / 1024) * 10) / 10,
      },
      importMs: Math.round(importMs),
      liveReportMs: {
        alone: { median: median(alone), p90: p90(alone) },
        shadowAtNice0: { median: median(niceNormal.live), p90: p90(niceNormal.live) },
        shadowAtNice19: { median: median(niceLowest.live), p90: p90(niceLowest.live) },
      },
      shadowMsPerStudy: {
        nice0: niceNormal.shadow.length ? median(niceNormal.shadow) : null,
        nice19: niceLowest.shadow.length ? median(niceLowest.shadow) : null,
      },
      shadowStudiesDone: { nice0: niceNormal.shadow.length, nice19: niceLowest.shadow.length },
      rssMb: { workerLiveOnly: rssLiveOnly, shadowProcess: niceLowest.rssMb },
      registryEstimateMb: memoryMbOf(
        graph.bytes.length + statSync(path.join(registry, 'densenet-sized', ANATOMY_STAGE_FILE)).size,
      ),
    };
    const r = (x: number) => Math.round(x);
    const line = (name: string, xs: number[]) => `${name} median ${r(median(xs))} ms, p90 ${r(p90(xs))} ms`;
    console.log(`DenseNet-121-sized graph: ${graph.params} parameters, ${out.graph.gmacs} GMACs, ${out.graph.fileMb} MB; import ${out.importMs} ms`);
    console.log(line('live report alone:                     ', alone));
    console.log(line('live report, shadow busy at nice 0:    ', niceNormal.live));
    console.log(line('live report, shadow busy at nice 19:   ', niceLowest.live));
    const each = (xs: number[]) => (xs.length ? `median ${r(median(xs))} ms` : 'none finished during the live runs');
    console.log(`shadow pipeline per study: ${each(niceNormal.shadow)} at nice 0, ${each(niceLowest.shadow)} at nice 19`);
    console.log(`RSS: worker with the live model ${rssLiveOnly} MB; shadow process with the shadow model ${niceLowest.rssMb} MB (registry counts ${out.registryEstimateMb} MB for the model and its anatomy stage)`);
    console.log(JSON.stringify(out));
  } finally {
    busy.forEach((b) => b.kill('SIGKILL'));
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
