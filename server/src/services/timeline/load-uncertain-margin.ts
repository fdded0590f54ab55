import { z } from 'zod';
import { createModelFileReader } from '../../knowledge/read-model-file.js';

const ZManifestBand = z.object({ uncertainMargin: z.number().finite().min(0).optional() });

/** Its own schema, not readModelIdentity's: only the band is needed, so a manifest without findings still gives one. */
const readManifestBand = createModelFileReader('manifest.json', ZManifestBand);

/**
 * The shipped manifest's `uncertainMargin`: the log-odds half-width of the "uncertain" band the
 * worker calls findings with. The comparison reuses it rather than a number of its own. Without
 * one (or without a readable manifest) the worker calls with no band (`?? 0`), and so does this.
 * Re-read only when the file changes, like the model card's metrics.
 */
export function loadUncertainMargin(modelDir: string): number {
  return readManifestBand(modelDir)?.uncertainMargin ?? 0;
}
