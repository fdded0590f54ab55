/**
 * npm run bench:models [-- --films 8]
 *
 * Issue 47: what one shadow model costs the worker. A DenseNet-121-sized graph (about 8 M
 * parameters and 3 G multiply-adds at 1 x 224 x 224, plain 3x3 convolutions with random weights,
 * written by tests/helpers/onnx-graph.ts: no weights are downloaded) is imported through the
 * real `model import` as a torchxrayvision-contract model; then the shipped model's pipeline runs
 * on the fixture films alone, and again with the shadow's pipeline on the previous film running
 * at the same time (as the worker's shadow queue would), one ORT thread each. Prints the live
 * report latency (median, p90) both ways, the shadow's own time per study, and the worker's
 * resident memory before and after the shadow is loaded, against the registry's estimate (twice
 * the ONNX file). The last line is JSON.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { importModel } from '../../scripts/model/import-model.js';
import { memoryMbOf } from '../../server/src/services/models/read-registry-models.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { encodeOnnx, randomWeights, type TOnnxNode, type TOnnxTensor } from '../../tests/helpers/onnx-graph.js';

const { values } = parseArgs({ options: { films: { type: 'string' } } });
const N = Number(values.films ?? 8);

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

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'cxr-bench-models-'));
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

    const shadow = await loadModel(path.join(registry, 'densenet-sized'));
    await runPipeline(films[0]!, shadow);
    const rssWithShadow = rssMb();
    const withShadow: number[] = [];
    const shadowMs: number[] = [];
    for (let i = 0; i < films.length; i++) {
      // The shadow run of the previous study overlaps this study's live run, as the two queues would.
      const s0 = performance.now();
      const sh = runPipeline(films[(i + films.length - 1) % films.length]!, shadow).then(() =>
        shadowMs.push(performance.now() - s0),
      );
      const t = performance.now();
      await runPipeline(films[i]!, live);
      withShadow.push(performance.now() - t);
      await sh;
    }

    const out = {
      bench: 'models',
      films: N,
      cpus: os.cpus().length,
      graph: {
        params: graph.params,
        gmacs: Math.round(graph.macs / 1e7) / 100,
        fileMb: Math.round((graph.bytes.length / 1024 / 1024) * 10) / 10,
      },
      importMs: Math.round(importMs),
      liveReportMs: { alone: { median: median(alone), p90: p90(alone) }, withOneShadow: { median: median(withShadow), p90: p90(withShadow) } },
      shadowMsPerStudy: median(shadowMs),
      workerRssMb: { liveOnly: rssLiveOnly, withOneShadow: rssWithShadow, shadowDelta: rssWithShadow - rssLiveOnly },
      registryEstimateMb: memoryMbOf(graph.bytes.length),
    };
    const r = (x: number) => Math.round(x);
    console.log(`DenseNet-121-sized graph: ${graph.params} parameters, ${out.graph.gmacs} GMACs, ${out.graph.fileMb} MB; import ${out.importMs} ms`);
    console.log(`live report (shipped pipeline) alone:          median ${r(median(alone))} ms, p90 ${r(p90(alone))} ms`);
    console.log(`live report with one shadow running alongside: median ${r(median(withShadow))} ms, p90 ${r(p90(withShadow))} ms`);
    console.log(`shadow pipeline per study: median ${r(out.shadowMsPerStudy)} ms`);
    console.log(`worker RSS: ${rssLiveOnly} MB live only, ${rssWithShadow} MB with the shadow loaded (+${out.workerRssMb.shadowDelta} MB; registry counts ${out.registryEstimateMb} MB)`);
    console.log(JSON.stringify(out));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
