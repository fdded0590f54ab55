import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { TCompareSummary } from '@contracts/schemas/batch-summary.js';
import { CsvInputError, parseCsvObjects } from '../csv.js';
import { bootstrapInterval } from '../stats/bootstrap-interval.js';
import { aurocScorer } from '../stats/weighted-auroc.js';
import { modelFindings, planOf, scoredFor, type TBootstrapSettings, type TCohortFilm } from './score-cohort.js';

/** Another run's results CSV: each analysed image's probabilities, by image sha256. */
export interface TOtherRun {
  file: string;
  sha256: string;
  modelVersions: string[];
  probabilities: Map<string, Map<string, number>>;
}

/** Reads `--compare`'s results CSV (as this command writes it); refused before any upload when it is not one. */
export async function readOtherRun(file: string): Promise<TOtherRun> {
  const bytes = await readFile(file);
  const rows = parseCsvObjects(bytes.toString('utf8'));
  const columns = Object.keys(rows[0] ?? {});
  if (!columns.includes('sha256') || !columns.some((c) => c.startsWith('p_')))
    throw new CsvInputError(
      `--compare: ${file} is not a batch results CSV (it needs the sha256 and p_<finding> columns)`,
    );
  const probabilities = new Map<string, Map<string, number>>();
  const modelVersions = new Set<string>();
  for (const row of rows) {
    if (row.status !== 'completed' || row.accepted !== 'true' || !row.sha256) continue;
    const byLabel = new Map<string, number>();
    for (const [column, value] of Object.entries(row))
      if (column.startsWith('p_') && value !== '' && Number.isFinite(Number(value)))
        byLabel.set(column.slice(2), Number(value));
    probabilities.set(row.sha256, byLabel);
    if (row.model_version) modelVersions.add(row.model_version);
  }
  return {
    file,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    modelVersions: [...modelVersions],
    probabilities,
  };
}

/**
 * AUROC of this run minus the other's on the films both scored, per finding, with a paired
 * bootstrap: each resample draws the same patients for both models, so the interval reflects
 * the difference between the models and not the luck of two separate draws.
 */
export function compareRuns(
  films: readonly TCohortFilm[],
  other: TOtherRun,
  settings: TBootstrapSettings,
): TCompareSummary {
  const plan = planOf(films, settings);
  const findings = modelFindings(films).map((label) => {
    const ours = scoredFor(films, label).scored;
    const paired = ours.flatMap((s) => {
      const theirs = other.probabilities.get(films[s.film]!.outcome.sha256)?.get(label);
      return theirs === undefined ? [] : [{ ours: s, theirs: { ...s, score: theirs } }];
    });
    const scoreOurs = aurocScorer(paired.map((p) => p.ours));
    const scoreTheirs = aurocScorer(paired.map((p) => p.theirs));
    const auroc = scoreOurs();
    const aurocOther = scoreTheirs();
    const defined = auroc !== null && aurocOther !== null;
    const positives = paired.filter((p) => p.ours.positive).length;
    return {
      finding: label,
      films: paired.length,
      positives,
      negatives: paired.length - positives,
      auroc,
      aurocOther,
      difference: defined ? auroc - aurocOther : null,
      differenceCi: defined
        ? bootstrapInterval(plan, (w) => {
            const a = scoreOurs(w);
            const b = scoreTheirs(w);
            return a === null || b === null ? null : a - b;
          }).ci
        : null,
      note: !paired.length
        ? 'no film scored for this finding in both runs'
        : defined
          ? null
          : 'needs positive and negative films scored in both runs',
    };
  });
  return { other: { file: other.file, sha256: other.sha256, modelVersions: other.modelVersions }, findings };
}
