import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CHECKS } from './gate.js';
import type { LoadedModel, ManifestFinding, ModelManifest, ResolvedFinding } from './types.js';

export const DEFAULT_MODEL_DIR = 'models/cxr';

export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/**
 * Reads `manifest.json` from a model folder (argument, else MODEL_DIR, else models/cxr),
 * checks the ONNX file against the manifest's sha256 and fills in defaults. The ONNX
 * session itself is created lazily by infer.ts on first use.
 */
export async function loadModel(dir?: string): Promise<LoadedModel> {
  const root = path.resolve(dir ?? process.env.MODEL_DIR ?? DEFAULT_MODEL_DIR);
  let manifest: ModelManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(root, 'manifest.json'), 'utf8')) as ModelManifest;
  } catch (err) {
    throw new ModelLoadError(`cannot read ${path.join(root, 'manifest.json')}: ${(err as Error).message}`);
  }
  validate(manifest);
  const modelPath = path.join(root, manifest.file);
  const bytes = await readFile(modelPath).catch((err: Error) => {
    throw new ModelLoadError(`cannot read model file ${modelPath}: ${err.message}`);
  });
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== manifest.sha256) {
    throw new ModelLoadError(`sha256 of ${modelPath} is ${digest}, manifest says ${manifest.sha256}`);
  }
  return { dir: root, modelPath, manifest, findings: resolveFindings(manifest), checks: { ...DEFAULT_CHECKS, ...manifest.gate?.checks } };
}

/** Without a findings list every label of every head is a finding at threshold 0.5. */
function resolveFindings(m: ModelManifest): ResolvedFinding[] {
  const list: ManifestFinding[] = m.findings ?? m.heads.flatMap((h) => h.labels.map((label) => ({ label, source: { head: h.name, label } })));
  return list.map((f) => ({ ...f, display: f.display ?? f.label, threshold: f.threshold ?? 0.5 }));
}

function validate(m: ModelManifest): void {
  const fail = (msg: string): never => {
    throw new ModelLoadError(`invalid manifest: ${msg}`);
  };
  if (!m.file || !m.sha256) fail('file and sha256 are required');
  if (!m.input || m.input.layout !== 'NCHW' || ![1, 3].includes(m.input.channels)) fail('input must be NCHW with 1 or 3 channels');
  if (m.input.resize && m.input.resize !== 'area-stretch') fail(`unsupported resize ${m.input.resize}`);
  if (!Array.isArray(m.heads) || m.heads.length === 0) fail('at least one head is required');
  const heads = new Map(m.heads.map((h) => [h.name, h]));
  for (const h of m.heads) {
    if (h.activation !== 'softmax' && h.activation !== 'sigmoid') fail(`head ${h.name}: activation must be softmax or sigmoid`);
    if (h.bias && h.bias.length !== h.labels.length) fail(`head ${h.name}: bias length differs from labels`);
    if (h.conditionalOn && !heads.get(h.conditionalOn.head)?.labels.includes(h.conditionalOn.label)) fail(`head ${h.name}: bad conditionalOn`);
  }
  for (const f of m.findings ?? []) {
    const h = heads.get(f.source.head) ?? fail(`finding ${f.label}: unknown head ${f.source.head}`);
    const lab = f.source.label ?? f.source.complementOf;
    if (!lab || !h.labels.includes(lab)) fail(`finding ${f.label}: unknown label in head ${h.name}`);
    if (f.heatmap && !m.cams?.channels.includes(f.heatmap)) fail(`finding ${f.label}: unknown heatmap channel ${f.heatmap}`);
  }
  if (m.gate && !m.gate.labels.includes(m.gate.rejectLabel)) fail('gate.rejectLabel is not a gate label');
}
