/**
 * Issue 48 item 3: does the heart-border ("silhouette") rule earn the CTRs it withholds? On films with a
 * known answer, every setting of the rule's heat level (check-heart-border.ts, BORDER_HEAT_FROM) is
 * scored, and one is chosen by patient-grouped cross-validation:
 *
 * - cxr-external-val's ChestX-ray14 films (Cardiomegaly, Effusion and airspace labels): cardiomegaly's
 *   one-vs-rest AUROC (Cardiomegaly against every other film; a withheld or missing CTR scores lowest, as
 *   the card scores a film without a call), its AUROC against normal films, how often the CTR is withheld
 *   on films with and without cardiomegaly, and with Effusion or an airspace label.
 * - cxr-extra's Wingspan and JSRT films (heart and lung masks drawn by hand, so the true CTR is known):
 *   how often the rule withholds, and the measured CTR's error on the films it withholds and keeps.
 *
 * The level is chosen per held-out fold (5 folds by patient, cxr_train.model5.folds.fold_of's hash) on the
 * other folds' films: the largest level (withholding least) with the best one-vs-rest AUROC there, "never"
 * being the largest, so the rule withholds only where that improves the figure out of fold.
 *
 * Usage: node --import tsx bench/heart-and-maps/evaluate-silhouette-rule.ts --model models/cxr
 *          --external .cache/heart/external.jsonl --masked .cache/heart/masked.jsonl [--out FILE]
 * (the dumps: dump-film-outputs.ts on cxr-external-val/labels.csv, and on cxr-extra/manifest.csv with
 *  --where 'source=wingspan-ctr|jsrt').
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { heartBorderObscured } from '../../worker/src/pipeline/check-heart-border.js';
import { loadModel } from '../../worker/src/pipeline/load-model.js';
import type { LoadedModel } from '../../worker/src/pipeline/types.js';
import { readDump, rebuildFilm } from './read-film-outputs.js';

const USAGE =
  'Usage: node --import tsx bench/heart-and-maps/evaluate-silhouette-rule.ts --model DIR --external FILE --masked FILE [--out FILE]';
const DATASETS = path.resolve('..', 'shared', 'datasets');
/** The heat levels tried; Infinity: the rule never withholds. */
const LEVELS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, Infinity];
const K = 5;
const AIRSPACE = ['Consolidation', 'Infiltration', 'Pneumonia'];

const foldOf = (group: string): number => Number(BigInt('0x' + createHash('sha256').update(group).digest('hex')) % 5n);

/** Mann-Whitney AUROC (ties count half). */
function auroc(pos: number[], neg: number[]): number | null {
  if (pos.length === 0 || neg.length === 0) return null;
  let s = 0;
  for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / (pos.length * neg.length);
}

interface Scored {
  /** Cardiomegaly's probability when assessed with the CTR kept, else null (not assessed). */
  p: number | null;
  /** Whether the rule withholds the CTR at each level (false where there is no CTR to withhold). */
  withheld: boolean[];
  ctrMeasured: number | null;
  ctrKept: boolean;
}

function scoreFilm(model: LoadedModel, d: Parameters<typeof rebuildFilm>[1]): Scored {
  const r = rebuildFilm(model, d);
  const card = r.findings.find((f) => f.label === 'cardiomegaly');
  const hasCtr = r.found.anatomy.ctr !== null;
  const withheld = LEVELS.map((lv) => hasCtr && heartBorderObscured(r.found, r.findings, r.heatmaps, lv));
  return { p: card?.probability ?? null, withheld, ctrMeasured: r.found.anatomy.ctrMeasured, ctrKept: hasCtr };
}

const share = (xs: boolean[]): number | null => (xs.length ? xs.filter(Boolean).length / xs.length : null);
const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000) / 1000);

async function main(): Promise<number> {
  const { values } = parseCliArgs(process.argv.slice(2), {
    model: { type: 'string' },
    external: { type: 'string' },
    masked: { type: 'string' },
    out: { type: 'string' },
  });
  if (!values.model || !values.external || !values.masked)
    throw new CliUsageError('Give --model, --external and --masked.');
  const model = await loadModel(values.model);
  const threshold = model.findings.find((f) => f.label === 'cardiomegaly')?.threshold ?? 0.5;

  // External ChestX-ray14 films.
  const labels = parse(await readFile(path.join(DATASETS, 'cxr-external-val', 'labels.csv')), {
    columns: true,
  }) as Record<string, string>[];
  const byPath = new Map(labels.map((r) => [r.path!, r]));
  const films: { y: boolean; normal: boolean; eff: boolean; air: boolean; fold: number; s: Scored }[] = [];
  for (const d of await readDump(values.external)) {
    const row = byPath.get(d.path);
    if (!d.accepted || !row || row.source !== 'nih-cxr14') continue;
    const names = (row.findings ?? '').split('|');
    films.push({
      y: names.includes('Cardiomegaly'),
      normal: row.label === 'normal',
      eff: names.includes('Effusion'),
      air: AIRSPACE.some((a) => names.includes(a)),
      fold: foldOf(row.patient ?? ''),
      s: scoreFilm(model, d),
    });
  }
  const scoreAt = (f: (typeof films)[number], li: number): number => (f.s.p === null || f.s.withheld[li] ? -1 : f.s.p);
  const oneVsRest = (fs: typeof films, li: number) =>
    auroc(
      fs.filter((f) => f.y).map((f) => scoreAt(f, li)),
      fs.filter((f) => !f.y).map((f) => scoreAt(f, li)),
    );
  const perLevel = LEVELS.map((lv, li) => {
    const withCard = films.filter((f) => f.y);
    const assessed = withCard.filter((f) => scoreAt(f, li) >= 0);
    return {
      level: Number.isFinite(lv) ? lv : 'never',
      oneVsRest: round(oneVsRest(films, li)),
      vsNormal: round(
        auroc(
          withCard.map((f) => scoreAt(f, li)),
          films.filter((f) => f.normal).map((f) => scoreAt(f, li)),
        ),
      ),
      assessedWithCardiomegaly: `${assessed.length} / ${withCard.length}`,
      flaggedWithCardiomegaly: withCard.filter((f) => scoreAt(f, li) >= threshold).length,
      withheldWithCardiomegaly: round(share(withCard.map((f) => f.s.withheld[li]!))),
      withheldWithoutCardiomegaly: round(share(films.filter((f) => !f.y).map((f) => f.s.withheld[li]!))),
      withheldWithEffusionOrAirspace: round(share(films.filter((f) => f.eff || f.air).map((f) => f.s.withheld[li]!))),
      withheldNormal: round(share(films.filter((f) => f.normal).map((f) => f.s.withheld[li]!))),
    };
  });

  // The level chosen out of fold.
  const chosen: (number | 'never')[] = [];
  const oof = films.map(() => 0);
  const oofWithheld = films.map(() => false);
  for (let k = 0; k < K; k++) {
    const inner = films.filter((f) => f.fold !== k);
    let best = LEVELS.length - 1;
    let bestAuc = oneVsRest(inner, best) ?? 0;
    for (let li = LEVELS.length - 2; li >= 0; li--) {
      const a = oneVsRest(inner, li) ?? 0;
      if (a > bestAuc + 1e-12) [best, bestAuc] = [li, a];
    }
    chosen.push(Number.isFinite(LEVELS[best]!) ? LEVELS[best]! : 'never');
    films.forEach((f, i) => {
      if (f.fold !== k) return;
      oof[i] = scoreAt(f, best);
      oofWithheld[i] = f.s.withheld[best]!;
    });
  }
  const cardIdx = films.map((f, i) => (f.y ? i : -1)).filter((i) => i >= 0);
  const crossValidated = {
    chosenPerFold: chosen,
    oneVsRest: round(
      auroc(
        cardIdx.map((i) => oof[i]!),
        films.map((f, i) => (f.y ? null : oof[i]!)).filter((v): v is number => v !== null),
      ),
    ),
    assessedWithCardiomegaly: `${cardIdx.filter((i) => oof[i]! >= 0).length} / ${cardIdx.length}`,
    withheldWithCardiomegaly: round(share(cardIdx.map((i) => oofWithheld[i]!))),
    withheldWithoutCardiomegaly: round(
      share(films.map((f, i) => (f.y ? null : oofWithheld[i]!)).filter((v) => v !== null)),
    ),
  };

  // Wingspan and JSRT: the true CTR from the hand-drawn masks.
  const manifest = parse(await readFile(path.join(DATASETS, 'cxr-extra', 'manifest.csv')), {
    columns: true,
  }) as Record<string, string>[];
  const truth = new Map(manifest.map((r) => [r.path!, r]));
  const masked: { big: boolean; err: number | null; s: Scored }[] = [];
  for (const d of await readDump(values.masked)) {
    const row = truth.get(d.path);
    if (!d.accepted || !row || !row.ctr) continue;
    const s = scoreFilm(model, d);
    const ctr = Number(row.ctr);
    masked.push({ big: ctr > 0.5, err: s.ctrMeasured === null ? null : Math.abs(s.ctrMeasured - ctr), s });
  }
  const meanErr = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? round(v.reduce((a, b) => a + b, 0) / v.length) : null;
  };
  const maskedPerLevel = LEVELS.map((lv, li) => ({
    level: Number.isFinite(lv) ? lv : 'never',
    withheldCtrAbove050: round(share(masked.filter((m) => m.big).map((m) => m.s.withheld[li]!))),
    withheldCtrAtMost050: round(share(masked.filter((m) => !m.big).map((m) => m.s.withheld[li]!))),
    ctrErrorWithheld: meanErr(masked.filter((m) => m.s.withheld[li]).map((m) => m.err)),
    ctrErrorKept: meanErr(masked.filter((m) => m.s.ctrKept && !m.s.withheld[li]).map((m) => m.err)),
  }));

  const result = {
    model: `${model.manifest.modelName} ${model.manifest.modelVersion}`,
    external: {
      films: films.length,
      withCardiomegaly: films.filter((f) => f.y).length,
      normal: films.filter((f) => f.normal).length,
      cardiomegalyThreshold: round(threshold),
      perLevel,
      crossValidated,
    },
    wingspanAndJsrt: {
      films: masked.length,
      ctrAbove050: masked.filter((m) => m.big).length,
      perLevel: maskedPerLevel,
    },
  };
  process.stdout.write(JSON.stringify(result, null, 1) + '\n');
  if (values.out) await writeFile(values.out, JSON.stringify(result, null, 1) + '\n');
  return 0;
}

runCli(USAGE, main, (err) => {
  process.stderr.write(`evaluate-silhouette-rule: ${(err as Error).message}\n`);
  return 1;
});
