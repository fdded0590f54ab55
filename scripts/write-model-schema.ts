/**
 * Writes models/cxr/manifest.schema.json: the manifest contract (contracts/model/manifest.ts) as
 * JSON Schema (draft 2020-12) for the Python exporter to validate against before it writes a
 * manifest. The cross-field rules (labels named by findings exist in their head, ctrCombine needs
 * an anatomy stage, …) live in the zod refinement only. tests/pipeline/model-files.test.ts fails
 * when the file and the schema drift apart. Run: npx tsx scripts/write-model-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ZModelManifest } from '../contracts/model/manifest.js';

export const manifestJsonSchema = (): object => z.toJSONSchema(ZModelManifest, { io: 'input' });

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync('models/cxr/manifest.schema.json', `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
  console.log('wrote models/cxr/manifest.schema.json');
}
