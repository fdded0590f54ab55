import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseModelManifest, type TModelManifest } from '@contracts/model/manifest.js';
import { ANATOMY_STAGE_FILE } from '@contracts/model/registry.js';

export interface TAnatomyStage {
  /** The manifest's `anatomy` and `gate` for the imported model (file: ANATOMY_STAGE_FILE). */
  anatomy: NonNullable<TModelManifest['anatomy']>;
  gate: NonNullable<TModelManifest['gate']>;
  /** The shipped stage's ONNX file, to copy into the imported model's folder. */
  source: string;
}

/**
 * The shipped model's anatomy stage, lent to an imported classifier (issue 47): its chest-film
 * gate (a CT slice, a document or another body part is refused, an inverted film turned the right
 * way round) and the measured heart and lung fields (the CTR, the lung-field box a `lung-box` crop
 * needs, the maps' lung zones and sides). Without it an imported model would read whatever it is
 * given, and the report would lose the measured heart. The import copies the file into the
 * model's folder, so that a folder is self-contained and its sha256s are checked at load. Null
 * when the shipped model has no such stage.
 */
export async function readAnatomyStage(shippedDir: string): Promise<TAnatomyStage | null> {
  const parsed = parseModelManifest(JSON.parse(await readFile(path.join(shippedDir, 'manifest.json'), 'utf8')));
  if (!parsed.ok) throw new Error(`the shipped manifest is invalid: ${parsed.error}`);
  const { anatomy, gate } = parsed.manifest;
  if (!anatomy || gate?.model !== 'anatomy') return null;
  return { anatomy: { ...anatomy, file: ANATOMY_STAGE_FILE }, gate, source: path.join(shippedDir, anatomy.file) };
}
