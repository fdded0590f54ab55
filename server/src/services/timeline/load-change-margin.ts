import { readManifestSummary } from '../../knowledge/read-manifest-summary.js';
import { readTestRetest } from '../../knowledge/read-test-retest.js';
import type { TChangeRule } from './compare-results.js';

/**
 * The band within which the timeline calls a change "unchanged": the shipped manifest's
 * `changeMargin` (model 5+, whose calls have no uncertain band), else its `uncertainMargin` (the
 * log-odds half-width of the "uncertain" band the worker called earlier models' findings with).
 * Without either (or without a readable manifest) there is no band (`?? 0`), as in the worker.
 * Re-read only when the file changes, like the model card's metrics.
 */
export function loadChangeMargin(modelDir: string): number {
  const m = readManifestSummary(modelDir);
  return m?.changeMargin ?? m?.uncertainMargin ?? 0;
}

/**
 * The comparison's rule for the shipped model: each finding's measured test-retest spread
 * (models/cxr/test-retest.json, when it was measured on this model version), and the band above
 * for any finding it does not cover.
 */
export function loadChangeRule(modelDir: string): TChangeRule {
  const measured = readTestRetest(modelDir);
  const version = readManifestSummary(modelDir)?.modelVersion;
  const spreads =
    measured && measured.modelVersion === version
      ? Object.fromEntries(Object.entries(measured.findings).map(([label, f]) => [label, f.spread]))
      : {};
  return { margin: loadChangeMargin(modelDir), spreads };
}
