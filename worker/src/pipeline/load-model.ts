import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_GATE_CHECKS, parseModelManifest } from '@contracts/model/manifest.js';
import type { LoadedModel, ManifestFinding, ModelManifest, ResolvedFinding } from './types.js';

export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/**
 * Reads `manifest.json` from a model folder, checks the ONNX file(s) (classifier, and the anatomy
 * stage of model 2+) against the manifest's sha256 and fills in defaults. The caller names the
 * folder (the worker and `classify` from their config's MODEL_DIR); the ONNX session itself is
 * created lazily by infer.ts on first use.
 */
export async function loadModel(dir: string): Promise<LoadedModel> {
  const root = path.resolve(dir);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path.join(root, 'manifest.json'), 'utf8'));
  } catch (err) {
    throw new ModelLoadError(`cannot read ${path.join(root, 'manifest.json')}: ${(err as Error).message}`);
  }
  // The shared contract (contracts/model/manifest.ts), the same the server, the client and the
  // Python exporter (manifest.schema.json) hold the files to.
  const parsed = parseModelManifest(raw);
  if (!parsed.ok) throw new ModelLoadError(`invalid manifest: ${parsed.error}`);
  const manifest = parsed.manifest as ModelManifest;
  const modelPath = await checkedFile(root, manifest.file, manifest.sha256);
  const anatomyPath = manifest.anatomy
    ? await checkedFile(root, manifest.anatomy.file, manifest.anatomy.sha256)
    : undefined;
  const checks = { ...DEFAULT_GATE_CHECKS, ...manifest.gate?.checks };
  return {
    dir: root,
    modelPath,
    ...(anatomyPath ? { anatomyPath } : {}),
    manifest,
    findings: resolveFindings(manifest),
    checks,
  };
}

/** Path of an ONNX file of the model folder after checking it against the manifest's sha256. */
async function checkedFile(root: string, file: string, sha256: string): Promise<string> {
  const p = path.join(root, file);
  const bytes = await readFile(p).catch((err: Error) => {
    throw new ModelLoadError(`cannot read model file ${p}: ${err.message}`);
  });
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== sha256) throw new ModelLoadError(`sha256 of ${p} is ${digest}, manifest says ${sha256}`);
  return p;
}

/** Without a findings list every label of every head is a finding at threshold 0.5; a withdrawn output never is. */
function resolveFindings(m: ModelManifest): ResolvedFinding[] {
  const withdrawn = new Set((m.withdrawn ?? []).map((w) => w.label));
  const list: ManifestFinding[] = (
    m.findings ?? m.heads.flatMap((h) => h.labels.map((label) => ({ label, source: { head: h.name, label } })))
  ).filter((f) => !withdrawn.has(f.label));
  return list.map((f) => ({ ...f, display: f.display ?? f.label, threshold: f.threshold ?? 0.5 }));
}
