import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { DEFAULT_CHECKS } from './gate.js';
import type { LoadedModel, ManifestAnatomy, ManifestFinding, ModelManifest, ResolvedFinding } from './types.js';

export class ModelLoadError extends Error {
  override name = 'ModelLoadError';
}

/**
 * Reads `manifest.json` from a model folder (argument, else the config's MODEL_DIR, whose default is models/cxr),
 * checks the ONNX file(s) (classifier, and the anatomy stage of model 2) against the manifest's sha256 and fills in defaults. The ONNX
 * session itself is created lazily by infer.ts on first use.
 */
export async function loadModel(dir?: string): Promise<LoadedModel> {
  const root = path.resolve(dir ?? loadBaseConfig().MODEL_DIR);
  let manifest: ModelManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(root, 'manifest.json'), 'utf8')) as ModelManifest;
  } catch (err) {
    throw new ModelLoadError(`cannot read ${path.join(root, 'manifest.json')}: ${(err as Error).message}`);
  }
  validate(manifest);
  const modelPath = await checkedFile(root, manifest.file, manifest.sha256);
  const anatomyPath = manifest.anatomy
    ? await checkedFile(root, manifest.anatomy.file, manifest.anatomy.sha256)
    : undefined;
  const checks = { ...DEFAULT_CHECKS, ...manifest.gate?.checks };
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

/** Without a findings list every label of every head is a finding at threshold 0.5. */
function resolveFindings(m: ModelManifest): ResolvedFinding[] {
  const list: ManifestFinding[] =
    m.findings ?? m.heads.flatMap((h) => h.labels.map((label) => ({ label, source: { head: h.name, label } })));
  return list.map((f) => ({ ...f, display: f.display ?? f.label, threshold: f.threshold ?? 0.5 }));
}

function validate(m: ModelManifest): void {
  const fail = (msg: string): never => {
    throw new ModelLoadError(`invalid manifest: ${msg}`);
  };
  if (!m.file || !m.sha256) fail('file and sha256 are required');
  if (!m.input || m.input.layout !== 'NCHW' || ![1, 3].includes(m.input.channels))
    fail('input must be NCHW with 1 or 3 channels');
  if (m.input.resize && m.input.resize !== 'area-stretch') fail(`unsupported resize ${m.input.resize}`);
  if (!Array.isArray(m.heads) || m.heads.length === 0) fail('at least one head is required');
  const heads = new Map(m.heads.map((h) => [h.name, h]));
  const hasLabel = (ref: { head: string; label: string }): boolean =>
    heads.get(ref.head)?.labels.includes(ref.label) === true;
  for (const h of m.heads) {
    if (h.activation !== 'softmax' && h.activation !== 'sigmoid')
      fail(`head ${h.name}: activation must be softmax or sigmoid`);
    if (h.bias && h.bias.length !== h.labels.length) fail(`head ${h.name}: bias length differs from labels`);
    if (Array.isArray(h.temperature) && h.temperature.length !== h.labels.length)
      fail(`head ${h.name}: temperature length differs from labels`);
    if (h.conditionalOn && !hasLabel(h.conditionalOn)) fail(`head ${h.name}: bad conditionalOn`);
  }
  for (const f of m.findings ?? []) {
    const h = heads.get(f.source.head) ?? fail(`finding ${f.label}: unknown head ${f.source.head}`);
    const lab = f.source.label ?? f.source.complementOf;
    if (!lab || !h.labels.includes(lab)) fail(`finding ${f.label}: unknown label in head ${h.name}`);
    if (f.heatmap && !m.cams?.channels.includes(f.heatmap))
      fail(`finding ${f.label}: unknown heatmap channel ${f.heatmap}`);
    if (f.conditionalOn && !hasLabel(f.conditionalOn)) fail(`finding ${f.label}: bad conditionalOn`);
    if (f.ctrCombine && !m.anatomy) fail(`finding ${f.label}: ctrCombine needs an anatomy stage`);
  }
  if (m.gate && !m.gate.labels.includes(m.gate.rejectLabel)) fail('gate.rejectLabel is not a gate label');
  if (m.anatomy) validateAnatomy(m.anatomy, fail);
  // The classifier sees the lung crop, so a gate on the whole film must come from the anatomy stage.
  if (m.gate && (m.gate.model === 'anatomy') !== Boolean(m.anatomy))
    fail('gate.model must be "anatomy" exactly when there is an anatomy stage');
  if (m.input.crop && (m.input.crop !== 'lung-box' || !m.anatomy))
    fail(`input.crop ${m.input.crop} needs an anatomy stage`);
  if (m.input.crop && m.input.width !== m.input.height) fail('a lung-box crop is stretched to a square input');
}

function validateAnatomy(a: ManifestAnatomy, fail: (msg: string) => never): void {
  if (!a.file || !a.sha256) fail('anatomy.file and anatomy.sha256 are required');
  if (!a.input || a.input.layout !== 'NCHW' || ![1, 3].includes(a.input.channels))
    fail('anatomy.input must be NCHW with 1 or 3 channels');
  if (a.input.resize && a.input.resize !== 'area-stretch') fail(`unsupported anatomy resize ${a.input.resize}`);
  if (!a.masks?.output || a.masks.channels?.[0] !== 'lung' || a.masks.channels[1] !== 'heart')
    fail('anatomy.masks must name the output and channels ["lung", "heart"]');
  for (const k of ['boxMargin', 'minLungFraction', 'minHeartPixels', 'ctrReference'] as const) {
    if (typeof a[k] !== 'number' || !Number.isFinite(a[k])) fail(`anatomy.${k} must be a number`);
  }
}
