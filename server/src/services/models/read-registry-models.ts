import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { modelRegistryDir, type TBaseConfig } from '@contracts/config/base-config.js';
import { ANATOMY_STAGE_FILE, SHIPPED_MODEL_ID, ZRegistryEntry, type TModelContract, type TOperatingPoints } from '@contracts/model/registry.js';
import { readManifestSummary } from '../../knowledge/read-manifest-summary.js';

/** A model folder as the registry sees it (no status: that is the server's state). */
export interface TRegistryFolder {
  id: string;
  name: string;
  version: string;
  contract: TModelContract;
  sha256: string;
  /** The ONNX files' size (classifier and anatomy stage). */
  bytes: number;
  importedAt: string | null;
  importedBy: string | null;
  operatingPoints: TOperatingPoints | null;
  /** The shipped model carries its own measured operating points (its model card). */
  hasOperatingPoints: boolean;
}

const fileBytes = (p: string): number => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};

/**
 * What a model is counted for against MODEL_MEMORY_LIMIT_MB: twice its ONNX files, since ONNX
 * Runtime holds the weights and the optimised graph built from them (an estimate; the bench
 * measures a DenseNet-121-sized one: bench/models).
 */
export const memoryMbOf = (bytes: number): number => Math.ceil((2 * bytes) / 1024 / 1024);

type TDirs = Pick<TBaseConfig, 'MODEL_DIR' | 'MODEL_REGISTRY_DIR' | 'DATA_DIR'>;

/** The shipped model from MODEL_DIR/manifest.json (null when it cannot be read). */
function shippedFolder(config: TDirs): TRegistryFolder | null {
  const m = readManifestSummary(config.MODEL_DIR);
  if (!m?.modelVersion || !m.sha256) return null;
  let raw: { modelName?: string; file?: string; anatomy?: { file?: string } } = {};
  try {
    raw = JSON.parse(readFileSync(path.join(config.MODEL_DIR, 'manifest.json'), 'utf8')) as typeof raw;
  } catch {
    return null;
  }
  const bytes =
    fileBytes(path.join(config.MODEL_DIR, raw.file ?? 'model.onnx')) +
    (raw.anatomy?.file ? fileBytes(path.join(config.MODEL_DIR, raw.anatomy.file)) : 0);
  return {
    id: SHIPPED_MODEL_ID,
    name: raw.modelName ?? 'shipped',
    version: m.modelVersion,
    contract: 'shipped',
    sha256: m.sha256,
    bytes,
    importedAt: null,
    importedBy: null,
    operatingPoints: null,
    hasOperatingPoints: true,
  };
}

/** The imported models: each folder of the registry with a valid registry.json (others are skipped). */
function importedFolders(config: TDirs): TRegistryFolder[] {
  const root = modelRegistryDir(config);
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
  const out: TRegistryFolder[] = [];
  for (const n of names.sort()) {
    let parsed;
    try {
      parsed = ZRegistryEntry.safeParse(JSON.parse(readFileSync(path.join(root, n, 'registry.json'), 'utf8')));
    } catch {
      continue;
    }
    if (!parsed.success || parsed.data.id !== n) continue;
    const e = parsed.data;
    out.push({
      id: e.id,
      name: e.name,
      version: e.version,
      contract: e.contract,
      sha256: e.sha256,
      // The model and the shipped anatomy stage the import copied in front of it (borrow-anatomy-stage.ts).
      bytes: e.bytes + fileBytes(path.join(root, n, ANATOMY_STAGE_FILE)),
      importedAt: e.importedAt,
      importedBy: e.importedBy,
      operatingPoints: e.operatingPoints,
      hasOperatingPoints: e.operatingPoints !== null,
    });
  }
  return out;
}

/** Every model the registry holds: the shipped one first, then the imported ones by id. */
export function readRegistryFolders(config: TDirs): TRegistryFolder[] {
  const shipped = shippedFolder(config);
  return [...(shipped ? [shipped] : []), ...importedFolders(config)];
}
