import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Which model ships (MODEL_DIR/manifest.json): the worker refuses to load an ONNX file whose
 * sha256 differs from the manifest's, so the manifest's sha256 names the exact weights that
 * produce new results. Site thresholds are pinned to it.
 */
const ZManifest = z.object({
  modelVersion: z.string(),
  sha256: z.string(),
  uncertainMargin: z.number().optional(),
  findings: z.array(z.object({ label: z.string(), display: z.string(), threshold: z.number(), summary: z.boolean().optional() })),
});
export type TModelIdentity = z.infer<typeof ZManifest>;

const cache = new Map<string, { mtimeMs: number; identity: TModelIdentity | null }>();

/** The shipped model, re-read only when the manifest changes; null when it cannot be read. */
export function readModelIdentity(modelDir: string): TModelIdentity | null {
  const path = join(modelDir, 'manifest.json');
  try {
    const { mtimeMs } = statSync(path);
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === mtimeMs) return hit.identity;
    const parsed = ZManifest.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    const identity = parsed.success ? parsed.data : null;
    cache.set(path, { mtimeMs, identity });
    return identity;
  } catch {
    return null;
  }
}
