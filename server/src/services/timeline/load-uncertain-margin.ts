import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const ZManifestBand = z.object({ uncertainMargin: z.number().finite().min(0).optional() });

const cache = new Map<string, { mtimeMs: number; margin: number }>();

/**
 * The shipped manifest's `uncertainMargin`: the log-odds half-width of the "uncertain" band the
 * worker calls findings with. The comparison reuses it rather than a number of its own. Without
 * one (or without a readable manifest) the worker calls with no band (`?? 0`), and so does this.
 * Re-read only when the file changes, like the model card's metrics.
 */
export function loadUncertainMargin(modelDir: string): number {
  const path = join(modelDir, 'manifest.json');
  try {
    const { mtimeMs } = statSync(path);
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === mtimeMs) return hit.margin;
    const parsed = ZManifestBand.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    const margin = parsed.success ? parsed.data.uncertainMargin ?? 0 : 0;
    cache.set(path, { mtimeMs, margin });
    return margin;
  } catch {
    return 0;
  }
}
