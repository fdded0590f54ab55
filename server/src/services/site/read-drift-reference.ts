import { z } from 'zod';
import { createModelFileReader } from '../../knowledge/read-model-file.js';

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

/** The reference, or null when it is missing or unreadable (the monitor then says "no reference"). */
export const readDriftReference = createModelFileReader('drift-reference.json', ZDriftReference);
