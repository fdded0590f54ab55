/**
 * Runs the worker's pipeline on each image (folders are walked recursively) and prints one
 * JSON line per image on stdout: gate decision (and the refusal's code), every shipped finding's probability and call
 * ('positive' only from 50 %, 'possible' when flagged below it), for model 2+ the anatomy stage's CTR, lung box and
 * flags, and for model 4 the projection ({call: 'AP' | 'PA', probabilityAP, source, disagrees}) and the withdrawn outputs. Without --jsonl a short summary follows on stderr.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { setIntraOpThreads } from '../pipeline/infer.js';
import { loadModel, runPipeline } from '../pipeline/run-pipeline.js';

const roundOrNull = (p: number | null): number | null => (p === null ? null : Number(p.toFixed(6)));

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

const USAGE = `Usage: npm run classify -- [--jsonl] [--model DIR] <files or folders>

Runs the analysis pipeline locally (no server) and prints one JSON line per image on stdout.
  --jsonl       only the JSON lines (no summary on stderr)
  --model DIR   the model directory (default $MODEL_DIR)
  --view AP|PA  the films' DICOM ViewPosition: it decides the projection, and "disagrees" says when
                the model reads the other one with p >= 0.8
  -h, --help    this text
Exit codes: 0 done, 1 failed, 2 usage error.`;

async function main(): Promise<number> {
  const { values, positionals: inputs } = parseCliArgs(process.argv.slice(2), {
    jsonl: { type: 'boolean' },
    model: { type: 'string' },
    view: { type: 'string' },
  });
  const view = values.view === undefined ? null : String(values.view).toUpperCase();
  if (view !== null && view !== 'AP' && view !== 'PA') throw new CliUsageError('--view must be AP or PA.');
  const context = { viewPosition: view as 'AP' | 'PA' | null };
  if (inputs.length === 0) throw new CliUsageError('Give at least one image file or folder.');
  const jsonl = values.jsonl === true;
  const modelDir = values.model;
  // The worker's config: MODEL_DIR when no --model is given, ORT_INTRA_OP_THREADS, both checked.
  const config = loadWorkerConfig();
  setIntraOpThreads(config.ORT_INTRA_OP_THREADS);
  const model = await loadModel(modelDir ?? config.MODEL_DIR);
  let n = 0;
  let accepted = 0;
  for (const input of inputs) {
    for await (const file of walk(input, true)) {
      const r = await runPipeline(await readFile(file), model, context);
      n++;
      if (r.gate.accepted) accepted++;
      const line = {
        file,
        accepted: r.gate.accepted,
        // The refusal's code ('colour', 'not_cxr', …); the server words it for the clinician.
        refusal: r.gate.code,
        flags: r.gate.flags,
        probabilities: Object.fromEntries(r.findings.map((f) => [f.label, Number(f.probability.toFixed(6))])),
        calls: Object.fromEntries(r.findings.map((f) => [f.label, f.call])),
        topFinding: r.topFinding,
        // Model 4: AP or PA from the projection output (null when refused); absent without one.
        ...(model.manifest.projection || view
          ? {
              projection: r.projection
                ? {
                    call: r.projection.call,
                    probabilityAP: roundOrNull(r.projection.probabilityAP),
                    source: r.projection.source,
                    // The DICOM view (--view) says one projection, the model the other with p >= 0.8.
                    disagrees: r.projection.disagrees === true,
                  }
                : null,
            }
          : {}),
        // Model 4: outputs withdrawn from the findings (never a probability or a call).
        ...(r.withdrawn ? { withdrawn: r.withdrawn.map((w) => w.label) } : {}),
        // Model 2: what the anatomy stage measured (null when refused).
        ...(r.anatomy !== undefined
          ? { anatomy: r.anatomy && { ctr: r.anatomy.ctr, lungBox: r.anatomy.lungBox, flags: r.anatomy.flags } }
          : {}),
        modelVersion: r.modelVersion,
        modelName: r.modelName,
        ms: r.timingsMs.total,
      };
      process.stdout.write(JSON.stringify(line) + '\n');
    }
  }
  if (!jsonl)
    process.stderr.write(
      `${n} image(s), ${accepted} accepted, ${n - accepted} refused (model ${model.manifest.modelName} ${model.manifest.modelVersion})\n`,
    );
  return 0;
}

runCli(USAGE, main, (err) => {
  process.stderr.write(`classify: ${(err as Error).message}\n`);
  return 1;
});
