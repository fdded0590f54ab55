import type { TBaseConfig } from '@contracts/config/base-config.js';
import { parseModelMetrics, type TModelMetrics } from '@contracts/model/metrics.js';
import { SHIPPED_MODEL_ID, ZRegistryEntry, type TRegistryEntry } from '@contracts/model/registry.js';
import type { TDb } from '../../db/client.js';
import { metricsForResult } from '../../knowledge/model-metrics.js';
import { createModelFileReader } from '../../knowledge/read-model-file.js';
import { readModelIdentity, type TModelIdentity } from '../site/read-model-identity.js';
import type { TChangeRule } from '../timeline/compare-results.js';
import { loadChangeRule } from '../timeline/load-change-margin.js';
import { readRegistryState } from './registry-state.js';
import { servedModelDir } from './served-model-dir.js';

/**
 * Which model made a result, which is live, and what measured figures each has (issue 47): the
 * one place the chat, the timeline, the site pages and the live model card ask. The shipped
 * model's figures are its card's (MODEL_DIR/metrics.json, test-retest.json); an imported model's
 * are only what its own folder holds (registry.json: the cohort's operating points), never the
 * shipped model's.
 */

type TDirs = Pick<TBaseConfig, 'MODEL_DIR' | 'MODEL_REGISTRY_DIR' | 'DATA_DIR'>;

/** An analysis made before the registry has no model id: the shipped model made it. */
export const modelIdOf = (modelId: string | null | undefined): string => modelId ?? SHIPPED_MODEL_ID;

export const isShipped = (modelId: string | null | undefined): boolean => modelIdOf(modelId) === SHIPPED_MODEL_ID;

/** The model live now (the registry's state; the shipped one until an admin promotes another). */
export async function readLiveModelId(opts: { db: TDb }): Promise<string> {
  return (await readRegistryState(opts)).live;
}

const readEntry = createModelFileReader('registry.json', ZRegistryEntry);

/** An imported model's registry.json (null for the shipped model, or one that cannot be read). */
export function readImportedEntry(config: TDirs, modelId: string | null | undefined): TRegistryEntry | null {
  if (isShipped(modelId)) return null;
  try {
    const entry = readEntry(servedModelDir(config, modelIdOf(modelId)));
    return entry?.id === modelId ? entry : null;
  } catch {
    // A malformed id names no folder.
    return null;
  }
}

/**
 * An imported model's cohort operating points in the model card's shape, so every answer that
 * quotes per-finding figures quotes these: AUROC, sensitivity and specificity at the threshold,
 * the cohort's films, where they come from. Findings without a point have no figure.
 */
export function cohortMetrics(entry: TRegistryEntry): TModelMetrics | null {
  const op = entry.operatingPoints;
  if (!op) return null;
  const day = op.measuredAt.slice(0, 10);
  return parseModelMetrics({
    modelName: entry.name,
    modelVersion: entry.version,
    modelSha256: entry.sha256,
    evaluatedAt: op.measuredAt,
    testImages: op.studies,
    findingLabels: op.findings.map((f) => f.label),
    findings: Object.fromEntries(
      op.findings.map((f) => [
        f.label,
        {
          shipped: true,
          n: f.positives + f.negatives,
          positives: f.positives,
          auc: f.auroc,
          sensitivity: f.sensitivity,
          specificity: f.specificity,
          threshold: f.threshold,
          population: `this site's labelled cohort of ${op.studies} studies, measured ${day}`,
          figureFrom: 'operating point chosen on the same films',
        },
      ]),
    ),
  });
}

/** Where the figures quoted about a result come from. */
export type TMetricsSource = 'model-card' | 'site-cohort';

/**
 * The measured figures that may be quoted about a result made by `modelId`: the shipped card's
 * for the shipped model's own version, the cohort's for an imported model's own version, else
 * null (nothing is quoted rather than another model's figures).
 */
export function metricsOfResult(
  config: TDirs,
  modelId: string | null | undefined,
  result: { modelVersion: string },
): { metrics: TModelMetrics | null; source: TMetricsSource } {
  if (isShipped(modelId)) return { metrics: metricsForResult(config.MODEL_DIR, result), source: 'model-card' };
  const entry = readImportedEntry(config, modelId);
  const metrics = entry && entry.version === result.modelVersion ? cohortMetrics(entry) : null;
  return { metrics, source: 'site-cohort' };
}

/**
 * The timeline's change rule for two results, or why no change can be called: results of two
 * different models (no measured spread says how one film moves between them), or of an imported
 * model whose folder holds no test-retest spread for its version (scripts/measure-test-retest.ts
 * measures one with `--model <folder>`).
 */
export function changeRuleOf(
  config: TDirs,
  previousModelId: string | null | undefined,
  currentModelId: string | null | undefined,
): TChangeRule | { notCalled: string } {
  const before = modelIdOf(previousModelId);
  const now = modelIdOf(currentModelId);
  if (before !== now) {
    return {
      notCalled:
        `The two results were made by different models (${before} then ${now}): no measured spread says how far ` +
        'one film moves from one model to the other, so no change is called.',
    };
  }
  if (isShipped(now)) return loadChangeRule(config.MODEL_DIR);
  // An imported model's spread, once a site measured it in its folder (npm run measure:test-retest
  // -- --model <its folder>), for the version it serves now; findings it does not cover use the band.
  const rule = loadChangeRule(servedModelDir(config, now));
  if (Object.keys(rule.spreads).length) return rule;
  return {
    notCalled: `${now} has no measured test-retest spread (how far the same film moves when re-encoded, flipped or re-windowed), so no change is called.`,
  };
}

/**
 * The live model's folder and identity (manifest version, sha256, findings): what the site's
 * calibration is pinned to, the drift monitor reads and the urgent findings are offered from.
 */
export async function readLiveModel(
  opts: { db: TDb; config: TDirs },
): Promise<{ id: string; dir: string; identity: TModelIdentity | null }> {
  const id = await readLiveModelId(opts);
  let dir: string;
  try {
    dir = servedModelDir(opts.config, id);
  } catch {
    return { id, dir: opts.config.MODEL_DIR, identity: null };
  }
  return { id, dir, identity: readModelIdentity(dir) };
}
