import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelDirOf, SHIPPED_MODEL_ID, ZRegistryEntry, type TOperatingPoints } from '@contracts/model/registry.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { auroc } from '../../server/src/services/models/comparison-math.js';
import { readTruth, truthFor } from '../batch/cohort/read-truth.js';
import { listInputs } from '../batch/list-inputs.js';

/** A finding gets an operating point only from at least this many read-present and read-absent films. */
export const MIN_PER_CLASS = 5;

export class CalibrationRefused extends Error {}

/** The threshold maximising sensitivity + specificity - 1 (Youden's J) over the observed scores. */
export function youdenPoint(
  scores: number[],
  present: boolean[],
): { threshold: number; sensitivity: number; specificity: number } {
  const pos = present.filter(Boolean).length;
  const neg = present.length - pos;
  let best = { threshold: 1, sensitivity: 0, specificity: 1, j: -1 };
  for (const t of [...new Set(scores)].sort((a, b) => a - b)) {
    let tp = 0;
    let tn = 0;
    scores.forEach((s, i) => {
      if (s >= t && present[i]) tp++;
      if (s < t && !present[i]) tn++;
    });
    const j = tp / pos + tn / neg - 1;
    if (j > best.j) best = { threshold: t, sensitivity: tp / pos, specificity: tn / neg, j };
  }
  return { threshold: best.threshold, sensitivity: best.sensitivity, specificity: best.specificity };
}

/**
 * `npm run batch -- cohort.csv --model <name> --calibrate` (issue 47): runs an imported model
 * through the worker's own pipeline on a labelled cohort (the batch's CSV: path, label/findings,
 * patient) and measures each finding's operating point (Youden) where the cohort has at least
 * MIN_PER_CLASS films read present and absent. The points go into the model's registry.json and
 * the manifest it is served with, so the model can then be promoted. Nothing is invented: a
 * finding without enough films keeps no point, and a cohort giving none is refused.
 */
export async function calibrateModel(opts: {
  cohort: string;
  modelId: string;
  dirs: { shipped: string; registry: string };
  now?: Date;
  log?: (line: string) => void;
}): Promise<TOperatingPoints> {
  if (opts.modelId === SHIPPED_MODEL_ID) throw new CalibrationRefused('the shipped model has its own operating points');
  const dir = modelDirOf(opts.dirs, opts.modelId);
  const entryPath = path.join(dir, 'registry.json');
  const entry = ZRegistryEntry.parse(JSON.parse(await readFile(entryPath, 'utf8')));
  const model = await loadModel(dir);
  const inputs = await listInputs(opts.cohort);
  const scores = new Map<string, { s: number[]; p: boolean[] }>();
  let studies = 0;
  for (const input of inputs) {
    const truth = readTruth(input.label, input.findings);
    if (!truth) continue;
    const r = await runPipeline(await readFile(input.absPath), model);
    if (!r.gate.accepted) continue;
    studies++;
    for (const f of r.findings) {
      const present = truthFor(truth, f.label);
      if (present === null) continue;
      const e = scores.get(f.label) ?? { s: [], p: [] };
      e.s.push(f.probability);
      e.p.push(present);
      scores.set(f.label, e);
    }
  }
  const findings = [...scores.entries()].flatMap(([label, { s, p }]) => {
    const positives = p.filter(Boolean).length;
    const negatives = p.length - positives;
    if (positives < MIN_PER_CLASS || negatives < MIN_PER_CLASS) {
      opts.log?.(`${label}: ${positives} present, ${negatives} absent: too few for an operating point`);
      return [];
    }
    return [{ label, positives, negatives, auroc: auroc(s, p), ...youdenPoint(s, p) }];
  });
  if (findings.length === 0)
    throw new CalibrationRefused(
      `no finding has ${MIN_PER_CLASS} films read present and ${MIN_PER_CLASS} read absent in ${studies} accepted films`,
    );
  const points: TOperatingPoints = {
    measuredAt: (opts.now ?? new Date()).toISOString(),
    cohortSha256: createHash('sha256')
      .update(await readFile(opts.cohort))
      .digest('hex'),
    studies,
    method: 'youden',
    findings,
  };
  // The manifest the model is served with calls at the measured points from now on.
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
    findings?: { label: string; threshold?: number }[];
  };
  for (const f of manifest.findings ?? []) {
    const point = findings.find((p) => p.label === f.label);
    if (point) f.threshold = point.threshold;
  }
  await writeAtomically(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  await writeAtomically(entryPath, `${JSON.stringify({ ...entry, operatingPoints: points }, null, 2)}\n`);
  return points;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}
