import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ZRegistryEntry, type TOperatingPoint } from '@contracts/model/registry.js';
import { importModel } from '../../worker/src/models/import-model.js';
import { xrvShapedOnnx } from './onnx-graph.js';

/**
 * Imports a torchxrayvision-shaped graph (built here, random weights) into `registryDir` through
 * the real import, as `ops`; answers the registry.json of the new model (issue 47 tests).
 */
export async function importTestModel(work: string, registryDir: string, name: string): Promise<string> {
  const file = path.join(work, `${name}.onnx`);
  await writeFile(file, xrvShapedOnnx());
  await importModel({
    file,
    contract: 'torchxrayvision',
    name,
    registryDir,
    shippedDir: 'models/cxr',
    maxBytes: 1 << 20,
    importedBy: 'ops',
  });
  return path.join(registryDir, name, 'registry.json');
}

/** The effusion point most tests give a model: enough for promotion to be allowed. */
export const EFFUSION_POINT: TOperatingPoint = {
  label: 'pleural_effusion',
  threshold: 0.5,
  positives: 20,
  negatives: 20,
  sensitivity: 0.8,
  specificity: 0.7,
  auroc: 0.8,
};

/**
 * Writes operating points into a model's registry.json as `npm run batch -- … --calibrate` writes
 * them (tests/models/calibrate-model.test.ts runs the command itself).
 */
export async function writeOperatingPoints(
  entryFile: string,
  points: { measuredAt?: string; cohortSha256?: string; studies?: number; findings?: TOperatingPoint[] } = {},
): Promise<void> {
  const entry = ZRegistryEntry.parse(JSON.parse(await readFile(entryFile, 'utf8')));
  entry.operatingPoints = {
    measuredAt: points.measuredAt ?? new Date().toISOString(),
    cohortSha256: points.cohortSha256 ?? 'c'.repeat(64),
    studies: points.studies ?? 40,
    method: 'youden',
    findings: points.findings ?? [EFFUSION_POINT],
  };
  await writeFile(entryFile, JSON.stringify(entry));
}
