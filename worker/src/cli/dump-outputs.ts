/**
 * For model building, not the product: runs the worker's own pipeline (decode → checks → anatomy →
 * classifier) over the films a labels CSV lists and writes, per film, every raw output the model has,
 * calibrated or not, so that the Python evaluation scores exactly what ships
 * (models/train/cxr_train/evaluate/external.py). One JSON line per film on stdout.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { calibrate } from '../pipeline/calibrate.js';
import { checkImage } from '../pipeline/check-image.js';
import { classifyFilm } from '../pipeline/classify-film.js';
import { decodeImage } from '../pipeline/decode-image.js';
import { findAnatomy } from '../pipeline/find-anatomy.js';
import { setIntraOpThreads } from '../pipeline/infer.js';
import { loadModel } from '../pipeline/load-model.js';

const USAGE = `Usage: node --import tsx worker/src/cli/dump-outputs.ts --model DIR --csv LABELS.csv [--root DIR] [--column path]

Writes one JSON line per film listed in the CSV: gate, every head's raw logits and calibrated
probabilities, the CTR (measured, and the checks' verdict), and any extra ONNX output (e.g. pooled
features of an evaluation copy of the model), rounded to 5 decimals.`;

const round = (v: number): number => Math.round(v * 1e5) / 1e5;

async function main(): Promise<number> {
  const { values } = parseCliArgs(process.argv.slice(2), {
    model: { type: 'string' },
    csv: { type: 'string' },
    root: { type: 'string' },
    column: { type: 'string' },
  });
  if (!values.model || !values.csv) throw new CliUsageError('Give --model and --csv.');
  setIntraOpThreads(1);
  const model = await loadModel(values.model);
  const rows = parse(await readFile(values.csv), { columns: true }) as Record<string, string>[];
  const root = values.root ?? path.dirname(values.csv);
  const column = values.column ?? 'path';
  const heads = model.manifest.heads;
  for (const row of rows) {
    const rel = row[column] ?? '';
    const base = { path: rel };
    const decoded = await decodeImage(await readFile(path.join(root, rel)));
    if (!decoded.ok) {
      process.stdout.write(JSON.stringify({ ...base, accepted: false, refusal: 'undecodable' }) + '\n');
      continue;
    }
    const lap = (_: string, t: number): number => t;
    const checked = await checkImage(decoded.image, model, lap);
    if (!checked.accepted) {
      process.stdout.write(JSON.stringify({ ...base, accepted: false, refusal: checked.gate.code }) + '\n');
      continue;
    }
    const found = model.manifest.anatomy ? findAnatomy(model.manifest.anatomy, checked.firstNet) : null;
    const { outputs } = await classifyFilm(
      model,
      { film: checked.film, flags: checked.gate.flags, firstNet: checked.firstNet },
      found,
      lap,
    );
    const raw: Record<string, number[]> = {};
    for (const [name, t] of Object.entries({ ...checked.firstNet, ...outputs }))
      if (t.data.length <= 4096 && name !== 'cams' && name !== 'masks') raw[name] = Array.from(t.data, round);
    const probabilities: Record<string, number> = {};
    for (const h of heads) {
      const logits = outputs[h.output]?.data;
      if (!logits) continue;
      calibrate(h, logits).forEach((p, i) => (probabilities[h.labels[i] ?? String(i)] = round(p)));
    }
    const a = found?.anatomy;
    const line = {
      ...base,
      accepted: true,
      flags: checked.gate.flags,
      probabilities,
      raw,
      ctr: a?.ctr ?? null,
      ctrMeasured: a?.ctrMeasured ?? null,
      ctrUnreliable: a?.ctrUnreliable?.code ?? null,
      lungBox: a?.lungBox ?? null,
      anatomyFlags: a?.flags ?? [],
    };
    process.stdout.write(JSON.stringify(line) + '\n');
  }
  return 0;
}

runCli(USAGE, main, (err) => {
  process.stderr.write(`dump-outputs: ${(err as Error).message}\n`);
  return 1;
});
