import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'vitest';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { checkImage } from '../../worker/src/pipeline/check-image.js';
import { decodeImage } from '../../worker/src/pipeline/decode-image.js';
import { anatomyMasks } from '../../worker/src/pipeline/find-anatomy.js';
import {
  loadModel,
  runPipeline,
  type AnalysisResult,
  type LoadedModel,
} from '../../worker/src/pipeline/run-pipeline.js';

// The model under test is MODEL_DIR (default models/cxr); its fixtures are <model>/parity-fixtures.json
// or PARITY_FIXTURES. Written by cxr_train/export/parity_fixtures.py (model 1 fixtures came from make_fixtures.py, in git history)
// (model 2): the Python reference pipeline (PIL decode, numpy preprocessing, PyTorch forward passes)
// on the images under tests/fixtures/.
interface Case {
  file: string;
  accepted: boolean;
  reason: string | null;
  flags: string[];
  probabilities: Record<string, number>;
  /** Model 4: the projection output (no DICOM ViewPosition on these files). */
  projection?: { call: 'AP' | 'PA'; probabilityAP: number };
  anatomy?: {
    lungBox: number[] | null;
    ctr: number | null;
    /** Fixtures made after the CTR checks: the raw ratio and the verdict (before: ctr is the raw ratio). */
    ctrMeasured?: number | null;
    ctrUnreliable?: { code: string; reason: string } | null;
    flags: string[];
    lungMask: string;
    heartMask: string;
  } | null;
}
interface V2Tolerance {
  probability: number;
  ctr: number;
  lungBoxCells: number;
  maskDisagreement: number;
}
interface Fixtures {
  modelSha256: string;
  anatomySha256?: string;
  tolerance: number | V2Tolerance;
  cases: Case[];
}

const model = await loadModel(loadBaseConfig().MODEL_DIR);
const fixturesFile = process.env.PARITY_FIXTURES ?? path.join(model.dir, 'parity-fixtures.json');
const fixtures = JSON.parse(await readFile(fixturesFile, 'utf8')) as Fixtures;
const anatomy = model.manifest.anatomy;

test('fixtures were made with the model under test', () => {
  assert.equal(fixtures.modelSha256, model.manifest.sha256);
  if (anatomy) assert.equal(fixtures.anatomySha256, anatomy.sha256);
  assert.ok(fixtures.cases.length >= 10);
});

function checkGateAndProbabilities(r: AnalysisResult, c: Case, tolerance: number): void {
  assert.equal(r.gate.accepted, c.accepted, 'gate decision');
  assert.equal(r.gate.code ?? null, c.reason, 'refusal reason');
  assert.deepEqual([...r.gate.flags].sort(), [...c.flags].sort(), 'flags');
  const ts = Object.fromEntries(r.findings.map((f) => [f.label, f.probability]));
  // The silhouette check (worker check-heart-border.ts, issue 42) is the product's, after the
  // numerics Python mirrors: a ratio it finds obscured takes the findings that require the CTR out.
  const obscured = r.anatomy?.ctrUnreliable?.code === 'heart_border_obscured';
  const needsCtr = new Set(model.findings.filter((f) => f.requiresCtr).map((f) => f.label));
  const expected = Object.entries(c.probabilities).filter(([label]) => !(obscured && needsCtr.has(label)));
  assert.deepEqual(Object.keys(ts).sort(), expected.map(([label]) => label).sort());
  for (const [label, p] of expected) {
    const d = Math.abs(ts[label]! - p);
    assert.ok(d <= tolerance, `${label}: TypeScript ${ts[label]} vs Python ${p} (|diff| ${d.toExponential(2)})`);
  }
}

/** The anatomy net's thresholded masks as the pipeline computes them (after re-inverting an inverted film). */
async function tsMasks(m: LoadedModel, file: string) {
  const decoded = await decodeImage(await readFile(file));
  assert.ok(decoded.ok);
  const checked = await checkImage(decoded.image, m, () => 0);
  assert.ok(checked.accepted, 'the checks accepted the film');
  return anatomyMasks(m.manifest.anatomy!, checked.firstNet);
}

/** Fraction of cells where a mask differs from the packed bits (np.packbits, base64) of the fixture. */
function disagreement(mask: { data: Uint8Array }, b64: string): number {
  const bits = Buffer.from(b64, 'base64');
  let diff = 0;
  for (let k = 0; k < mask.data.length; k++) diff += Number(((bits[k >> 3]! >> (7 - (k & 7))) & 1) !== mask.data[k]);
  return diff / mask.data.length;
}

for (const c of fixtures.cases) {
  test(`TypeScript matches Python on ${c.file}`, async () => {
    const r = await runPipeline(await readFile(c.file), model);
    if (!anatomy) {
      checkGateAndProbabilities(r, c, fixtures.tolerance as number);
      return;
    }
    const tol = fixtures.tolerance as V2Tolerance;
    checkGateAndProbabilities(r, c, tol.probability);
    if (c.projection) {
      // The pooled features through the exported linear layer, against PyTorch's features and numpy's layer.
      assert.equal(r.projection?.source, 'model');
      assert.equal(r.projection?.call, c.projection.call, 'projection call');
      const d = Math.abs(r.projection!.probabilityAP! - c.projection.probabilityAP);
      assert.ok(d <= tol.probability, `p(AP) ${r.projection!.probabilityAP} vs ${c.projection.probabilityAP}`);
    } else if (c.accepted && model.manifest.projection) assert.fail('the fixtures lack the projection output');
    if (!c.accepted || !c.anatomy) {
      assert.equal(r.anatomy, null);
      return;
    }
    const masks = await tsMasks(model, c.file);
    const lung = disagreement(masks.lung, c.anatomy.lungMask);
    const heart = disagreement(masks.heart, c.anatomy.heartMask);
    assert.ok(
      lung <= tol.maskDisagreement && heart <= tol.maskDisagreement,
      `masks differ on ${lung} (lung), ${heart} (heart) of the grid`,
    );
    const a = r.anatomy!;
    assert.deepEqual([...a.flags].sort(), [...c.anatomy.flags].sort(), 'anatomy flags');
    if (c.anatomy.lungBox === null) assert.equal(a.lungBox, null);
    else {
      assert.ok(a.lungBox, 'a lung box');
      const cell = tol.lungBoxCells / masks.lung.width + 1e-9;
      a.lungBox.forEach((v, i) =>
        assert.ok(
          Math.abs(v - c.anatomy!.lungBox![i]!) <= cell,
          `lung box side ${i}: ${v} vs ${c.anatomy!.lungBox![i]}`,
        ),
      );
    }
    const raw = c.anatomy.ctrMeasured !== undefined ? c.anatomy.ctrMeasured : c.anatomy.ctr;
    if (raw === null) assert.equal(a.ctrMeasured, null);
    else
      assert.ok(a.ctrMeasured !== null && Math.abs(a.ctrMeasured - raw) <= tol.ctr, `CTR ${a.ctrMeasured} vs ${raw}`);
    if (c.anatomy.ctrUnreliable !== undefined && a.ctrUnreliable?.code !== 'heart_border_obscured') {
      assert.equal(a.ctrUnreliable?.code ?? null, c.anatomy.ctrUnreliable?.code ?? null, 'CTR plausibility');
      assert.equal(a.ctr === null, c.anatomy.ctr === null, 'CTR withheld');
    } else if (a.ctrUnreliable?.code === 'heart_border_obscured') {
      assert.equal(c.anatomy.ctrUnreliable?.code ?? null, null, 'the silhouette check only follows a plausible ratio');
      assert.equal(a.ctr, null, 'an obscured ratio is withheld');
    }
  });
}
