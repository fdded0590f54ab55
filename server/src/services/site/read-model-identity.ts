import { z } from 'zod';
import { createModelFileReader } from '../../knowledge/read-model-file.js';

/**
 * Which model ships (MODEL_DIR/manifest.json): the worker refuses to load an ONNX file whose
 * sha256 differs from the manifest's, so the manifest's sha256 names the exact weights that
 * produce new results. Site thresholds are pinned to it.
 */
const ZManifest = z.object({
  modelVersion: z.string(),
  sha256: z.string(),
  uncertainMargin: z.number().optional(),
  findings: z.array(
    z.object({ label: z.string(), display: z.string(), threshold: z.number(), summary: z.boolean().optional() }),
  ),
});
export type TModelIdentity = z.infer<typeof ZManifest>;

/** The shipped model, re-read only when the manifest changes; null when it cannot be read. */
export const readModelIdentity = createModelFileReader('manifest.json', ZManifest);
