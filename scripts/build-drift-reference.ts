/**
 * Writes MODEL_DIR/drift-reference.json: the shipped model's score distribution per finding on
 * a fixed sample of VALIDATION films (never the test split, which stays for the model card),
 * for the Site tab's drift monitor (population stability index against each week's analyses).
 *
 *   nice -n 10 npm run drift:reference -- --datasets DIR [--n 600] [--model models/cxr]
 *
 * DIR is the folder that holds the cxr-224/ and cxr-extra/ data sets (see models/README.md);
 * there is no default: the data sets are not part of the product.
 *
 * The sample is deterministic (films sorted by sha256, split between the data sets in
 * proportion to their validation sizes), so re-running on the same data gives the same file.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { CliUsageError, intFlag, parseCliArgs, runCli } from '@common/cli-args.js';
import { loadModel, runPipeline } from '../worker/src/pipeline/run-pipeline.js';
import { histogram } from '../server/src/services/site/psi.js';

const BINS = 10;

const HELP = `Usage: npm run drift:reference -- --datasets DIR [--n 600] [--model models/cxr]

Runs the shipped model over N validation films of the cxr-224 and cxr-extra data sets and writes
MODEL_DIR/drift-reference.json (score histograms per finding) for the Site tab's drift monitor.
A tool for whoever ships a model: it needs the training data sets, the app never runs it.
Exit codes: 0 written, 1 failed, 2 usage or data sets not found.`;

interface TFilm {
  dataset: string;
  path: string;
  sha256: string;
}

async function valFilms(datasets: string, dataset: string): Promise<TFilm[]> {
  const rows = parse(await readFile(join(datasets, dataset, 'manifest.csv'), 'utf8'), {
    columns: true,
    bom: true,
  }) as Record<string, string>[];
  return rows
    .filter((r) => r.split === 'val')
    .map((r) => ({ dataset, path: r.path!, sha256: r.sha256! }))
    .sort((a, b) => a.sha256.localeCompare(b.sha256));
}

runCli(HELP, async () => {
  const { values } = parseCliArgs(process.argv.slice(2), {
    n: { type: 'string', default: '600' },
    datasets: { type: 'string' },
    model: { type: 'string', default: 'models/cxr' },
  });
  const total = intFlag('n', values.n, 600, 1, 100_000);
  const datasets = values.datasets;
  if (!datasets) throw new CliUsageError('--datasets DIR is required (the folder holding cxr-224/ and cxr-extra/)');
  for (const dataset of ['cxr-224', 'cxr-extra']) {
    if (!existsSync(join(datasets, dataset, 'manifest.csv')))
      throw new CliUsageError(`No ${dataset}/manifest.csv under ${datasets}: give the data sets with --datasets`);
  }
  const pools = [await valFilms(datasets, 'cxr-224'), await valFilms(datasets, 'cxr-extra')];
  const all = pools.reduce((n, p) => n + p.length, 0);
  const sample = pools.flatMap((p) => p.slice(0, Math.round((total * p.length) / all)));
  const model = await loadModel(values.model);
  const scores = new Map<string, number[]>(model.findings.map((f) => [f.label, []]));
  let refused = 0;
  for (const [i, film] of sample.entries()) {
    const result = await runPipeline(await readFile(join(datasets, film.dataset, film.path)), model);
    if (!result.gate.accepted) refused++;
    for (const f of result.findings) scores.get(f.label)?.push(f.probability);
    if ((i + 1) % 100 === 0) process.stderr.write(`${i + 1}/${sample.length}\n`);
  }

  const reference = {
    schema: 'chest-doctor-ai/drift-reference@1',
    modelVersion: model.manifest.modelVersion,
    modelSha256: model.manifest.sha256,
    createdAt: new Date().toISOString(),
    binEdges: Array.from({ length: BINS + 1 }, (_, i) => i / BINS),
    films: sample.length,
    refused,
    splits: pools.map((p) => ({
      dataset: p[0]?.dataset ?? '',
      split: 'val',
      available: p.length,
      used: sample.filter((s) => s.dataset === p[0]?.dataset).length,
    })),
    selection: 'validation films sorted by sha256, first N per data set in proportion to its validation size',
    findings: Object.fromEntries([...scores].map(([label, s]) => [label, { n: s.length, counts: histogram(s, BINS) }])),
    filmSha256: sample.map((s) => s.sha256),
  };
  const out = join(values.model, 'drift-reference.json');
  await writeFile(out, `${JSON.stringify(reference, null, 2)}\n`);
  process.stderr.write(`wrote ${out}: ${sample.length} films, ${refused} refused by the gate\n`);
});
