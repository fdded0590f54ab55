import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseModelManifest, type TModelManifest } from '@contracts/model/manifest.js';

/** The shipped model's anatomy stage could not be lent (its manifest or file is missing or broken). */
export class AnatomyStageMissing extends Error {
  override name = 'AnatomyStageMissing';
}

/**
 * Puts the shipped model's anatomy stage in front of an imported classifier (issue 47): its
 * chest-film gate (a photograph, a document or another body part is refused, an inverted film
 * turned the right way round), the measured heart and lung fields (the CTR, the lung-field box a
 * `lung-box` crop needs, the maps' lung zones and sides). Without it an imported model would read
 * whatever it is given, and the report would lose the measured heart. The stage's ONNX file is
 * copied into `dir` (a model folder is self-contained: its sha256s are checked at load), and the
 * returned manifest carries the stage and its gate.
 */
export async function borrowAnatomyStage(
  manifest: TModelManifest,
  shippedDir: string,
  dir: string,
): Promise<TModelManifest> {
  let shipped: TModelManifest;
  try {
    const parsed = parseModelManifest(JSON.parse(await readFile(path.join(shippedDir, 'manifest.json'), 'utf8')));
    if (!parsed.ok) throw new Error(parsed.error);
    shipped = parsed.manifest;
  } catch (err) {
    throw new AnatomyStageMissing(`cannot read the shipped model's manifest: ${(err as Error).message}`);
  }
  const { anatomy, gate } = shipped;
  if (!anatomy || gate?.model !== 'anatomy')
    throw new AnatomyStageMissing('the shipped model has no anatomy stage with a chest-film gate to lend');
  // The file keeps a name of its own, so a classifier called anatomy.onnx is never overwritten.
  const file = 'anatomy-stage.onnx';
  await copyFile(path.join(shippedDir, anatomy.file), path.join(dir, file)).catch((err: Error) => {
    throw new AnatomyStageMissing(`cannot copy the shipped anatomy stage: ${err.message}`);
  });
  return { ...manifest, anatomy: { ...anatomy, file }, gate };
}
