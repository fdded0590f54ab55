/**
 * npm run classify -- [--jsonl] [--model DIR] <files or folders>
 *
 * Runs the worker's pipeline on each image (folders are walked recursively) and prints one
 * JSON line per image on stdout: gate decision, every shipped finding's probability and call,
 * and for model 2 the anatomy stage's CTR, lung box and flags. Without --jsonl a short summary follows on stderr.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { setIntraOpThreads } from '../pipeline/infer.js';
import { loadModel, runPipeline } from '../pipeline/run-pipeline.js';

const IMAGE_EXT = new Set(['.jpg', '.jpeg', '.png', '.webp', '.tif', '.tiff', '.gif', '.avif', '.heic', '.bmp']);

async function* walk(p: string, explicit: boolean): AsyncGenerator<string> {
  const s = await stat(p);
  if (s.isDirectory()) {
    const entries = (await readdir(p)).sort();
    for (const e of entries) yield* walk(path.join(p, e), false);
  } else if (explicit || IMAGE_EXT.has(path.extname(p).toLowerCase())) {
    yield p;
  }
}

function parseArgs(argv: string[]): { jsonl: boolean; model: string | undefined; inputs: string[] } {
  const inputs: string[] = [];
  let jsonl = false;
  let model: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--jsonl') jsonl = true;
    else if (a === '--model') model = argv[++i];
    else if (a === '-h' || a === '--help') inputs.length = 0;
    else inputs.push(a);
  }
  return { jsonl, model, inputs };
}

async function main(): Promise<number> {
  const { jsonl, model: modelDir, inputs } = parseArgs(process.argv.slice(2));
  if (inputs.length === 0) {
    process.stderr.write('usage: npm run classify -- [--jsonl] [--model DIR] <files or folders>\n');
    return 2;
  }
  // The worker's config: MODEL_DIR when no --model is given, ORT_INTRA_OP_THREADS, both checked.
  const config = loadWorkerConfig();
  setIntraOpThreads(config.ORT_INTRA_OP_THREADS);
  const model = await loadModel(modelDir ?? config.MODEL_DIR);
  let n = 0;
  let accepted = 0;
  for (const input of inputs) {
    for await (const file of walk(input, true)) {
      const r = await runPipeline(await readFile(file), model);
      n++;
      if (r.gate.accepted) accepted++;
      const line = {
        file,
        accepted: r.gate.accepted,
        reason: r.gate.reason,
        flags: r.gate.flags,
        probabilities: Object.fromEntries(r.findings.map((f) => [f.label, Number(f.probability.toFixed(6))])),
        calls: Object.fromEntries(r.findings.map((f) => [f.label, f.call])),
        topFinding: r.topFinding,
        // Model 2: what the anatomy stage measured (null when refused).
        ...(r.anatomy !== undefined ? { anatomy: r.anatomy && { ctr: r.anatomy.ctr, lungBox: r.anatomy.lungBox, flags: r.anatomy.flags } } : {}),
        modelVersion: r.modelVersion,
        modelName: r.modelName,
        ms: r.timingsMs.total,
      };
      process.stdout.write(JSON.stringify(line) + '\n');
    }
  }
  if (!jsonl) process.stderr.write(`${n} image(s), ${accepted} accepted, ${n - accepted} refused (model ${model.manifest.modelName} ${model.manifest.modelVersion})\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`classify: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
