import { z } from 'zod';
import { ZFixtureRun, ZModelContract, ZModelStatus, ZOperatingPoints } from '../model/registry.js';

/** The model registry's API (issue 47): GET /api/site/models, shadow, promote, rollback, comparison. */

export const MODEL_MESSAGES = {
  notFound: 'Model not found',
  alreadyLive: 'This model is already live',
  retiredOrLive: 'Only a candidate or retired model can be put in shadow',
  notShadow: 'This model is not in shadow',
  tooManyShadows: (max: number) =>
    `At most ${max} models can run in shadow at once (MODEL_MAX_SHADOWS); take one out of shadow first`,
  tooLarge: (id: string, needMb: number, usedMb: number, limitMb: number) =>
    `${id} needs about ${needMb} MB of worker memory; the live model and the shadows already take ${usedMb} MB of the ${limitMb} MB allowed (MODEL_MEMORY_LIMIT_MB)`,
  noOperatingPoints: (id: string) =>
    `${id} has no operating points measured on this site's cases: run npm run batch -- cohort.csv --model ${id} --calibrate first`,
  fewStudies: (id: string, studies: number, min: number) =>
    `${id} has been compared on ${studies} signed studies; promotion needs ${min} (MODEL_PROMOTE_MIN_STUDIES), or send { "confirm": true } to promote anyway`,
  noPrevious: 'There is no previous live model to roll back to',
  promoted: (id: string) => `${id} is live: new analyses use it`,
  rolledBack: (id: string) => `Rolled back: ${id} is live again for new analyses`,
  shadowOn: (id: string) => `${id} now runs in shadow on every new study`,
  shadowOff: (id: string) => `${id} no longer runs in shadow`,
  readsNotReference:
    "These labels are this department's signed reads (a finding named in the signed impression is present, one not named is absent), not a reference standard.",
} as const;

const mbText = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** POST /api/site/models (issue 47): what the server and the worker answer about an upload. */
export const MODEL_IMPORT_MESSAGES = {
  fileRequired: 'Send the model as the multipart file part "file" (an .onnx file)',
  manifestRequired: 'The manifest contract needs the manifest as the multipart file part "manifest" (JSON)',
  badContract: 'contract must be torchxrayvision or manifest',
  manifestTooLarge: 'The manifest is over 1 MB',
  tooLarge: (limitBytes: number) =>
    `the file is over ${mbText(limitBytes)}; the limit is ${mbText(limitBytes)} (MODEL_IMPORT_MAX_MB)`,
  noWorker: (seconds: number) =>
    `No worker took the model within ${seconds} s: is a worker running? Nothing was imported; try again when one is.`,
  stillChecking: (seconds: number) =>
    `The worker is still checking the model after ${seconds} s; reload the list in a while to see whether it was imported.`,
  failed: 'The import could not run on the worker; nothing was imported',
  imported: (id: string, runs: { film: string; accepted: boolean; topFinding: string | null }[]) =>
    `${id} imported as a candidate. Fixture films: ${runs.map((r) => `${r.film} ${r.accepted ? (r.topFinding ?? 'no finding') : 'refused'}`).join('; ')}.`,
} as const;

export const ZRegistryModel = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  status: ZModelStatus,
  contract: ZModelContract,
  sha256: z.string(),
  bytes: z.number(),
  /** What the registry counts against MODEL_MEMORY_LIMIT_MB for it. */
  memoryMb: z.number(),
  importedAt: z.string().nullable(),
  importedBy: z.string().nullable(),
  /** Whether it has operating points measured on a site cohort (the shipped model has its own). */
  operatingPoints: z.boolean(),
});
export type TRegistryModel = z.infer<typeof ZRegistryModel>;

const ZInterval = z.object({ value: z.number(), low: z.number(), high: z.number() });
export type TInterval = z.infer<typeof ZInterval>;

const ZModelSide = z.object({
  threshold: z.number(),
  auroc: ZInterval.nullable(),
  flagRate: z.number(),
  /** Of the studies this model flags, the share whose signed impression names the finding; null when it flags none. */
  ppv: z.number().nullable(),
});

export const ZComparisonFinding = z.object({
  label: z.string(),
  display: z.string(),
  studies: z.number(),
  present: z.number(),
  live: ZModelSide,
  shadow: ZModelSide,
  /** shadow AUROC - live AUROC, with its paired patient-bootstrap interval. */
  difference: ZInterval.nullable(),
});

export const ZComparison = z.object({
  modelId: z.string(),
  liveModelId: z.string(),
  studies: z.number(),
  patients: z.number(),
  resamples: z.number(),
  findings: z.array(ZComparisonFinding),
  timing: z.object({ liveMsPerStudy: z.number().nullable(), shadowMsPerStudy: z.number().nullable() }),
  memory: z.object({ shadowRssMb: z.number().nullable() }),
  note: z.string(),
});
export type TComparison = z.infer<typeof ZComparison>;

export const ZRegistryEvent = z.object({
  id: z.string(),
  action: z.enum(['import', 'shadow', 'unshadow', 'promote', 'rollback']),
  modelId: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  by: z.string(),
  at: z.string(),
  confirmed: z.boolean(),
  comparison: ZComparison.nullable(),
});

export const ZRegistry = z.object({
  models: z.array(ZRegistryModel),
  history: z.array(ZRegistryEvent),
  limits: z.object({ maxShadows: z.number(), memoryLimitMb: z.number(), promoteMinStudies: z.number() }),
});
export type TRegistry = z.infer<typeof ZRegistry>;

export const ZImportedModel = z.object({ model: ZRegistryModel });
export type TImportedModel = z.infer<typeof ZImportedModel>;

export const ZModelIdInput = z.object({ id: z.string().min(1).max(64) });
export const ZPromoteInput = z.object({ confirm: z.boolean().optional() });

/**
 * GET /api/model-card/live (tRPC modelCard.live): the live model's own card for any signed-in
 * user (clinicians read the card; no patient data). `imported` is null while the shipped model is
 * live (the public page is its card); otherwise every figure is the imported model's measured one:
 * registry.json (import, fixture films, cohort operating points) and the comparison recorded in
 * the history row that made it live.
 */
export const ZLiveModelCard = z.object({
  liveModelId: z.string(),
  imported: z
    .object({
      id: z.string(),
      name: z.string(),
      version: z.string(),
      contract: ZModelContract,
      sha256: z.string(),
      importedAt: z.string(),
      importedBy: z.string(),
      fixtureRuns: z.array(ZFixtureRun),
      /** Null: none measured (a model rolled back to without them cannot be quoted). */
      operatingPoints: ZOperatingPoints.nullable(),
      /** The history row that made it live: a promotion (with the comparison then) or a rollback. */
      madeLive: z
        .object({
          action: z.enum(['promote', 'rollback']),
          from: z.string().nullable(),
          by: z.string(),
          at: z.string(),
          confirmed: z.boolean(),
        })
        .nullable(),
      /** The comparison recorded at its latest promotion (null: none recorded). */
      promotionComparison: ZComparison.nullable(),
    })
    .nullable(),
});
export type TLiveModelCard = z.infer<typeof ZLiveModelCard>;
