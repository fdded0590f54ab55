import { z } from 'zod';

/**
 * The model registry (issue 47): the shipped model (MODEL_DIR, read-only, id 'shipped') and the
 * models a site imported (one folder each under MODEL_REGISTRY_DIR, named by id). An imported
 * folder holds the ONNX file, the manifest.json it is served with and registry.json (this file's
 * ZRegistryEntry), written by `npm run model -- import`. Which model is live or shadow is the
 * server's (site_settings, audited); the worker is told by the job payload's ids.
 */

export const SHIPPED_MODEL_ID = 'shipped';

/**
 * An imported model's copy of the shipped anatomy stage, which runs in front of every imported
 * classifier (worker/src/models/borrow-anatomy-stage.ts); its memory counts with the model's.
 */
export const ANATOMY_STAGE_FILE = 'anatomy-stage.onnx';

/** A folder name: lower-case letters, digits and dashes. */
export const ZModelId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,47}$/, 'a model name is 1-48 lower-case letters, digits or dashes');

export const MODEL_STATUSES = ['live', 'shadow', 'candidate', 'retired'] as const;
export const ZModelStatus = z.enum(MODEL_STATUSES);
export type TModelStatus = z.infer<typeof ZModelStatus>;

export const ZModelContract = z.enum(['shipped', 'torchxrayvision', 'manifest']);
export type TModelContract = z.infer<typeof ZModelContract>;

/** A finding's operating point measured on a labelled cohort (`npm run batch -- … --calibrate`). */
export const ZOperatingPoint = z.object({
  label: z.string(),
  threshold: z.number().min(0).max(1),
  positives: z.number().int().min(0),
  negatives: z.number().int().min(0),
  sensitivity: z.number().min(0).max(1),
  specificity: z.number().min(0).max(1),
  auroc: z.number().min(0).max(1).nullable(),
});
export type TOperatingPoint = z.infer<typeof ZOperatingPoint>;

export const ZOperatingPoints = z.object({
  measuredAt: z.string(),
  /** sha256 of the cohort CSV the points were measured on. */
  cohortSha256: z.string(),
  studies: z.number().int().min(1),
  /** 'youden': the threshold maximising sensitivity + specificity - 1 on the cohort. */
  method: z.literal('youden'),
  findings: z.array(ZOperatingPoint).min(1),
});
export type TOperatingPoints = z.infer<typeof ZOperatingPoints>;

/** What the import ran on the committed fixture films: the film's file name, the top finding, the time. */
export const ZFixtureRun = z.object({
  film: z.string(),
  accepted: z.boolean(),
  topFinding: z.string().nullable(),
  ms: z.number(),
});
export type TFixtureRun = z.infer<typeof ZFixtureRun>;

/** registry.json of an imported model's folder. */
export const ZRegistryEntry = z.object({
  id: ZModelId,
  name: z.string().min(1),
  version: z.string().min(1),
  contract: ZModelContract,
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  opset: z.number().int(),
  importedAt: z.string(),
  importedBy: z.string().min(1),
  fixtureRuns: z.array(ZFixtureRun),
  operatingPoints: ZOperatingPoints.nullable(),
});
export type TRegistryEntry = z.infer<typeof ZRegistryEntry>;

/** The folder of a model by id: the shipped one's, or its folder in the registry. */
export function modelDirOf(dirs: { shipped: string; registry: string }, id: string): string {
  if (id === SHIPPED_MODEL_ID) return dirs.shipped;
  // The id is checked here too: it names a folder the worker opens.
  return `${dirs.registry}/${ZModelId.parse(id)}`;
}
