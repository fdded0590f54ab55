import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** MODEL_DIR/drift-reference.json, written by scripts/build-drift-reference.ts from validation films. */
const ZDriftReference = z.object({
  modelVersion: z.string(),
  modelSha256: z.string(),
  binEdges: z.array(z.number()).min(2),
  films: z.number().int(),
  splits: z.array(z.object({ dataset: z.string(), split: z.string(), used: z.number().int() })),
  findings: z.record(z.string(), z.object({ n: z.number().int(), counts: z.array(z.number()) })),
});
export type TDriftReference = z.infer<typeof ZDriftReference>;

const cache = new Map<string, { mtimeMs: number; ref: TDriftReference | null }>();

/** The reference, or null when it is missing or unreadable (the monitor then says "no reference"). */
export function readDriftReference(modelDir: string): TDriftReference | null {
  const path = join(modelDir, 'drift-reference.json');
  try {
    const { mtimeMs } = statSync(path);
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === mtimeMs) return hit.ref;
    const parsed = ZDriftReference.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    const ref = parsed.success ? parsed.data : null;
    cache.set(path, { mtimeMs, ref });
    return ref;
  } catch {
    return null;
  }
}
