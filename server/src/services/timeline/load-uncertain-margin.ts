import { readManifestSummary } from '../../knowledge/read-manifest-summary.js';

/**
 * The shipped manifest's `uncertainMargin`: the log-odds half-width of the "uncertain" band the
 * worker calls findings with. The comparison reuses it rather than a number of its own. Without
 * one (or without a readable manifest) the worker calls with no band (`?? 0`), and so does this.
 * Re-read only when the file changes, like the model card's metrics.
 */
export function loadUncertainMargin(modelDir: string): number {
  return readManifestSummary(modelDir)?.uncertainMargin ?? 0;
}
