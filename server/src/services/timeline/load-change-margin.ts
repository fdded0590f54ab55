import { readManifestSummary } from '../../knowledge/read-manifest-summary.js';

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
