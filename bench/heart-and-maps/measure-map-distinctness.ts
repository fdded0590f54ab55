/**
 * Issue 48 item 4: how alike two flagged findings' maps are on one film. On every film of a dump
 * (dump-film-outputs.ts) the pipeline's maps are rebuilt (read-film-outputs.ts) and, for the
 * flagged non-summary findings that have one, the Pearson correlation of two maps is taken over the
 * whole anatomy grid (the stored map's frame: zeros outside the lungs count) and over the cells
 * where either map is non-zero. One pair a film (its two most probable flagged findings) and every
 * pair. Prints and writes a JSON summary.
 *
 * Usage: node --import tsx bench/heart-and-maps/measure-map-distinctness.ts --model models/cxr
 *          --dump .cache/heart/external.jsonl [--out bench/heart-and-maps/map-distinctness.json]
 */
import { writeFile } from 'node:fs/promises';
import { isCalled } from '@contracts/finding-call.js';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { loadModel } from '../../worker/src/pipeline/load-model.js';
import { mapCorrelation } from './map-correlation.js';
import { readDump, rebuildFilm } from './read-film-outputs.js';

const USAGE =
  'Usage: node --import tsx bench/heart-and-maps/measure-map-distinctness.ts --model DIR --dump FILE [--out FILE]';

const quantile = (xs: number[], q: number): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((x, y) => x - y);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.min(s.length - 1, lo + 1)]! - s[lo]!) * (pos - lo);
};
const summary = (xs: number[]) => ({
  pairs: xs.length,
  median: quantile(xs, 0.5),
  q25: quantile(xs, 0.25),
  q75: quantile(xs, 0.75),
  over07: xs.filter((x) => x > 0.7).length,
});

async function main(): Promise<number> {
  const { values } = parseCliArgs(process.argv.slice(2), {
    model: { type: 'string' },
    dump: { type: 'string' },
    out: { type: 'string' },
  });
  if (!values.model || !values.dump) throw new CliUsageError('Give --model and --dump.');
  const model = await loadModel(values.model);
  const summaryLabels = new Set(model.findings.filter((f) => f.summary).map((f) => f.label));
  const top: Record<'grid' | 'support', number[]> = { grid: [], support: [] };
  const all: Record<'grid' | 'support', number[]> = { grid: [], support: [] };
  const byPair = new Map<string, number[]>();
  let films = 0;
  for (const d of await readDump(values.dump)) {
    if (!d.accepted) continue;
    const r = rebuildFilm(model, d);
    const maps = new Map(r.heatmaps.map((h) => [h.label, h]));
    const flagged = r.findings
      .filter((f) => isCalled(f.call) && !summaryLabels.has(f.label) && f.ageGroup !== 'pediatric' && maps.has(f.label))
      .sort((a, b) => b.probability - a.probability);
    if (flagged.length < 2) continue;
    films++;
    for (let i = 0; i < flagged.length; i++)
      for (let j = i + 1; j < flagged.length; j++) {
        const a = maps.get(flagged[i]!.label)!;
        const b = maps.get(flagged[j]!.label)!;
        for (const where of ['grid', 'support'] as const) {
          const c = mapCorrelation(a, b, where);
          if (c === null) continue;
          all[where].push(c);
          if (i === 0 && j === 1) top[where].push(c);
          if (where === 'grid') {
            const key = [a.label, b.label].sort().join(' / ');
            byPair.set(key, [...(byPair.get(key) ?? []), c]);
          }
        }
      }
  }
  const result = {
    model: `${model.manifest.modelName} ${model.manifest.modelVersion}`,
    dump: values.dump,
    filmsWithTwoFlaggedMaps: films,
    topPair: { grid: summary(top.grid), support: summary(top.support) },
    everyPair: { grid: summary(all.grid), support: summary(all.support) },
    byPair: Object.fromEntries(
      [...byPair].filter(([, v]) => v.length >= 5).map(([k, v]) => [k, { pairs: v.length, median: quantile(v, 0.5) }]),
    ),
  };
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  if (values.out) await writeFile(values.out, JSON.stringify(result, null, 1) + '\n');
  return 0;
}

runCli(USAGE, main, (err) => {
  process.stderr.write(`measure-map-distinctness: ${(err as Error).message}\n`);
  return 1;
});
