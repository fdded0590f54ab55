/**
 * Writes the model files' contracts (contracts/model/) as JSON Schema (draft 2020-12) beside the
 * files, for the Python writers to validate against: models/cxr/manifest.schema.json,
 * metrics.schema.json, evaluation.schema.json, card.schema.json and test-retest.schema.json. The manifest's cross-field
 * rules (labels named by findings exist in their head, ctrCombine needs an anatomy stage, …) live
 * in the zod refinement only; the measured files' fields are optional there, as the product reads
 * them. tests/pipeline/model-files.test.ts fails when a file and its schema drift apart.
 * Run: npx tsx scripts/write-model-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ZCardText } from '../contracts/model/card.js';
import { ZModelEvaluation } from '../contracts/model/evaluation.js';
import { ZModelManifest } from '../contracts/model/manifest.js';
import { ZModelMetrics } from '../contracts/model/metrics.js';
import { ZTestRetest } from '../contracts/model/test-retest.js';

/** models/cxr/<name>.json -> its contract. */
export const MODEL_FILE_SCHEMAS = {
  manifest: ZModelManifest,
  metrics: ZModelMetrics,
  evaluation: ZModelEvaluation,
  card: ZCardText,
  'test-retest': ZTestRetest,
} as const;
export type TModelFileName = keyof typeof MODEL_FILE_SCHEMAS;

export const modelFileJsonSchema = (name: TModelFileName): object =>
  z.toJSONSchema(MODEL_FILE_SCHEMAS[name], { io: 'input' });

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const name of Object.keys(MODEL_FILE_SCHEMAS) as TModelFileName[]) {
    writeFileSync(`models/cxr/${name}.schema.json`, `${JSON.stringify(modelFileJsonSchema(name), null, 2)}\n`);
    console.log(`wrote models/cxr/${name}.schema.json`);
  }
}
