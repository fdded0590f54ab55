/**
 * For evaluation, not the product: runs the worker's own stages (decode → checks → anatomy →
 * classifier) over the films a labels CSV lists and writes, per film, what the later stages read:
 * every small output of both nets, the CAMs, the lung and heart masks (bit-packed) and the crop.
 * The evaluations (evaluate-silhouette-rule.ts, measure-map-distinctness.ts) rebuild heatmaps,
 * calls and the heart-border check from these lines with the pipeline's own pure functions, so a
 * rule can be tried at many settings without running the nets again. One JSON line per film.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { checkImage } from '../../worker/src/pipeline/check-image.js';
import { decodeImage } from '../../worker/src/pipeline/decode-image.js';
import { anatomyMasks } from '../../worker/src/pipeline/find-anatomy.js';
import { setIntraOpThreads } from '../../worker/src/pipeline/infer.js';
import { loadModel } from '../../worker/src/pipeline/load-model.js';
import { classifyFilm } from '../../worker/src/pipeline/classify-film.js';
import { findAnatomy } from '../../worker/src/pipeline/find-anatomy.js';
import { packMask, type DumpedFilm, type DumpedTensor } from './read-film-outputs.js';

const USAGE = `Usage: node --import tsx bench/heart-and-maps/dump-film-outputs.ts --model DIR --csv LABELS.csv [--root DIR] [--where COLUMN=VALUE[|VALUE…]]

Writes one JSON line per film (accepted by the gate or not) to stdout.`;

const round = (v: number): number => Math.round(v * 1e5) / 1e5;
const tensor = (t: { data: Float32Array; dims: readonly number[] }): DumpedTensor => ({
  dims: [...t.dims],
  data: Array.from(t.data, round),
});

async function main(): Promise<number> {
  const { values } = parseCliArgs(process.argv.slice(2), {
    model: { type: 'string' },
    csv: { type: 'string' },
    root: { type: 'string' },
    where: { type: 'string' },
  });
  if (!values.model || !values.csv) throw new CliUsageError('Give --model and --csv.');
  setIntraOpThreads(1);
  const model = await loadModel(values.model);
  const spec = model.manifest.anatomy;
  if (!spec) throw new CliUsageError('The model has no anatomy stage.');
  let rows = parse(await readFile(values.csv), { columns: true }) as Record<string, string>[];
  if (values.where) {
    const [column, wanted] = values.where.split('=');
    const allowed = new Set((wanted ?? '').split('|'));
    rows = rows.filter((r) => allowed.has(r[column ?? ''] ?? ''));
  }
  const root = values.root ?? path.dirname(values.csv);
  const lap = (_: string, t: number): number => t;
  for (const row of rows) {
    const rel = row.path ?? '';
    const decoded = await decodeImage(await readFile(path.join(root, rel)));
    if (!decoded.ok) {
      process.stdout.write(JSON.stringify({ path: rel, accepted: false }) + '\n');
      continue;
    }
    const checked = await checkImage(decoded.image, model, lap);
    if (!checked.accepted) {
      process.stdout.write(JSON.stringify({ path: rel, accepted: false }) + '\n');
      continue;
    }
    const found = findAnatomy(spec, checked.firstNet);
    const masks = anatomyMasks(spec, checked.firstNet);
    const { outputs, crop } = await classifyFilm(
      model,
      { film: checked.film, flags: checked.gate.flags, firstNet: checked.firstNet },
      found,
      lap,
    );
    const firstNet: Record<string, DumpedTensor> = {};
    for (const [name, t] of Object.entries(checked.firstNet))
      if (name !== spec.masks.output && t.data.length <= 4096) firstNet[name] = tensor(t);
    const classifier: Record<string, DumpedTensor> = {};
    for (const [name, t] of Object.entries(outputs)) classifier[name] = tensor(t);
    const line: DumpedFilm = {
      path: rel,
      accepted: true,
      film: { width: checked.film.width, height: checked.film.height },
      crop,
      lung: packMask(masks.lung),
      heart: packMask(masks.heart),
      firstNet,
      classifier,
      ctrMeasured: found.anatomy.ctrMeasured,
    };
    process.stdout.write(JSON.stringify(line) + '\n');
  }
  return 0;
}

runCli(USAGE, main, (err) => {
  process.stderr.write(`dump-film-outputs: ${(err as Error).message}\n`);
  return 1;
});
