import {
  BATCH_SUMMARY_SCHEMA_ID,
  ZBatchSummary,
  type TBatchSummary,
  type TCohortTable,
} from '@contracts/schemas/batch-summary.js';
import type { TResultRow } from '../results.js';
import { measureCalibration } from '../stats/measure-calibration.js';
import { rocPoints } from '../stats/roc-points.js';
import { compareRuns, type TOtherRun } from './compare-runs.js';
import { labelOfModelFinding, suggestLabel } from './finding-names.js';
import { readTruth } from './read-truth.js';
import { modelFindings, scoreCohort, scoredFor, type TBootstrapSettings, type TCohortFilm } from './score-cohort.js';

export interface TEvaluateOptions {
  rows: readonly TResultRow[];
  settings: TBootstrapSettings;
  other: TOtherRun | null;
  reproducibility: Pick<TBatchSummary['reproducibility'], 'command' | 'date' | 'csvSha256'> & {
    /** The manifest of --model-dir, to record the weights' sha256 when its version is the one that answered. */
    manifest: { modelVersion: string; sha256: string } | null;
  };
  plots: TBatchSummary['plots'];
}

/** A group's table key: the value for the `group` column, `column=value` for a --group-by column. */
const groupKey = (column: string, value: string) => (column === 'group' ? value : `${column}=${value}`);

function groupTables(films: readonly TCohortFilm[], settings: TBootstrapSettings): Record<string, TCohortTable> {
  const members = new Map<string, TCohortFilm[]>();
  for (const film of films)
    for (const [column, value] of Object.entries(film.groups)) {
      const key = groupKey(column, value);
      members.set(key, [...(members.get(key) ?? []), film]);
    }
  return Object.fromEntries(
    [...members.keys()].sort().map((key) => [key, scoreCohort(members.get(key) ?? [], settings)]),
  );
}

/** The reasons the results give for not assessing `label` (a pediatric-only finding for adults, a withdrawn output). */
function notAssessedDetail(films: readonly TCohortFilm[], label: string): string | null {
  const reasons = new Set<string>();
  for (const { outcome } of films)
    for (const n of outcome.notAssessed ?? [])
      if (n.reason && labelOfModelFinding(n.label) === label) reasons.add(n.reason);
  return reasons.size ? [...reasons].join('; ') : null;
}

function modelSha256(versions: string[], manifest: TEvaluateOptions['reproducibility']['manifest']) {
  if (!manifest) return { modelSha256: null, modelSha256Note: 'no model manifest here: give --model-dir' };
  if (versions.length === 1 && versions[0] === manifest.modelVersion)
    return { modelSha256: manifest.sha256, modelSha256Note: null };
  return {
    modelSha256: null,
    modelSha256Note: `the manifest in --model-dir is version ${manifest.modelVersion}, the server answered ${versions.join(', ') || 'none'}`,
  };
}

/**
 * The whole evaluation of a labelled run: per-finding and triage figures with intervals, the same
 * per group, calibration, what the model does not assess, names nobody knows, and the comparison
 * with another run. Pure: the caller writes the files.
 */
export function evaluateCohort(opts: TEvaluateOptions): {
  summary: TBatchSummary;
  /** Each finding's empirical ROC curve, for the plot. */
  roc: { finding: string; points: [number, number][] }[];
} {
  const labelled = opts.rows.flatMap((row) => {
    const truth = readTruth(row.input.label, row.input.findings);
    return truth ? [{ row, truth }] : [];
  });
  const films: TCohortFilm[] = labelled
    .filter(({ row }) => row.outcome.status === 'completed' && row.outcome.accepted)
    .map(({ row, truth }) => ({
      truth,
      patientId: row.input.patientId,
      groups: row.input.groups,
      outcome: row.outcome,
    }));
  const overall = scoreCohort(films, opts.settings);
  const modelLabels = new Set(modelFindings(films).map(labelOfModelFinding));
  const truthCounts = new Map<string, number>();
  for (const { truth } of films) for (const l of truth.findings) truthCounts.set(l, (truthCounts.get(l) ?? 0) + 1);
  const unrecognised = new Map<string, { rows: number; lines: string[] }>();
  for (const { row, truth } of labelled)
    for (const name of truth.unrecognised) {
      const entry = unrecognised.get(name) ?? { rows: 0, lines: [] };
      entry.rows++;
      if (entry.lines.length < 10) entry.lines.push(row.input.where ?? row.input.file);
      unrecognised.set(name, entry);
    }
  const modelVersions = [...new Set(films.map((f) => f.outcome.modelVersion).filter((v): v is string => !!v))];
  const summary = ZBatchSummary.parse({
    schema: BATCH_SUMMARY_SCHEMA_ID,
    reproducibility: {
      command: opts.reproducibility.command,
      date: opts.reproducibility.date,
      csvSha256: opts.reproducibility.csvSha256,
      seed: opts.settings.seed,
      bootstrapResamples: opts.settings.resamples,
      modelVersions,
      ...modelSha256(modelVersions, opts.reproducibility.manifest),
    },
    images: labelled.length,
    analysed: films.length,
    refusedByGate: labelled.filter(({ row: r }) => r.outcome.status === 'refused' || r.outcome.accepted === false)
      .length,
    notAnalysed: labelled.filter(({ row: r }) => r.outcome.status === 'rejected' || r.outcome.status === 'failed')
      .length,
    clusters: new Set(films.map((f, i) => f.patientId ?? `film:${i}`)).size,
    groupedByPatient: films.some((f) => f.patientId !== null),
    findings: overall.findings,
    triage: overall.triage,
    groups: groupTables(films, opts.settings),
    calibration: modelFindings(films).map((label) => ({
      finding: label,
      ...measureCalibration(
        scoredFor(films, label).scored.map((s) => ({ probability: s.score, positive: s.positive })),
      ),
    })),
    notAssessed: [...truthCounts]
      .filter(([label]) => !modelLabels.has(label))
      .sort((a, b) => b[1] - a[1])
      .map(([finding, positives]) => ({
        finding,
        positives,
        reason: 'not assessed by this model',
        detail: notAssessedDetail(films, finding),
      })),
    unrecognised: [...unrecognised].map(([name, e]) => ({ name, ...e, suggestion: suggestLabel(name) })),
    compare: opts.other ? compareRuns(films, opts.other, opts.settings) : null,
    plots: opts.plots,
  });
  const roc = modelFindings(films).map((finding) => ({ finding, points: rocPoints(scoredFor(films, finding).scored) }));
  return { summary, roc };
}
