import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'vitest';
import {
  cardiothoracicRatio,
  cropResize,
  ctrWidthLines,
  lungBox,
  pixelBox,
  type Mask,
} from '../../worker/src/pipeline/anatomy.js';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { CTR_UNRELIABLE_REASONS } from '../../server/src/services/analysis/anatomy-text.js';
import { measureAnatomy } from '../../worker/src/pipeline/find-anatomy.js';
import { combineCtr, composeFindings, findingProbabilities } from '../../worker/src/pipeline/compose.js';
import { fmt, maskContour } from '../../worker/src/pipeline/contours.js';
import { lungHeatmaps } from '../../worker/src/pipeline/lung-heatmaps.js';
import { resizeArea } from '../../worker/src/pipeline/preprocess.js';
import {
  loadModel,
  runPipeline,
  type LoadedModel,
  type ManifestFinding,
  type ModelManifest,
} from '../../worker/src/pipeline/run-pipeline.js';

// Hand-made masks with known answers: these fail if the maths of models/train/cxr_train/anatomy/ops.py is
// not mirrored (margins, exclusive ends, row-wise thoracic width, whole-mask heart width).

const G = 128;

function mask(w = G, h = G): Mask {
  return { width: w, height: h, data: new Uint8Array(w * h) };
}

function fill(m: Mask, x0: number, y0: number, x1: number, y1: number): Mask {
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) m.data[y * m.width + x] = 1;
  return m;
}

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) <= eps, `${a} vs ${b}`);

test('lung box: extent of the lung pixels (exclusive end) plus the margin of its width and height', () => {
  const lung = fill(fill(mask(), 20, 30, 59, 89), 70, 30, 109, 89); // x 20..109, y 30..89
  const box = lungBox(lung, 0.08, 0.03)!;
  // x1 = 110, y1 = 90; margins 0.08 * 90 = 7.2 and 0.08 * 60 = 4.8
  [12.8 / G, 25.2 / G, 117.2 / G, 94.8 / G].forEach((v, i) => near(box[i]!, v));
});

test('lung box: clipped to the film, and none below the minimum lung fraction', () => {
  near(lungBox(fill(mask(), 0, 0, 127, 63), 0.08, 0.03)![3], (64 + 0.08 * 64) / G);
  assert.deepEqual(lungBox(fill(mask(), 0, 0, 127, 63), 0.08, 0.03)!.slice(0, 3), [0, 0, 1]);
  // 0.03 * 128 * 128 = 491.52 pixels
  const m = fill(mask(), 10, 10, 10 + 40, 10 + 11); // 41 x 12 = 492
  assert.ok(lungBox(m, 0.08, 0.03));
  m.data[10 * G + 10] = 0; // 491
  assert.equal(lungBox(m, 0.08, 0.03), null);
  assert.equal(lungBox(mask(), 0.08, 0.03), null);
});

test('pixel box: floor of the start, ceiling of the end, at least one pixel, inside the film', () => {
  assert.deepEqual(pixelBox([0.1, 0.25, 0.3337, 0.9], 1000, 500), { left: 100, top: 125, width: 234, height: 325 });
  assert.deepEqual(pixelBox([0, 0, 1, 1], 640, 480), { left: 0, top: 0, width: 640, height: 480 });
  assert.deepEqual(pixelBox([0.9995, 0.5, 1, 0.5], 1000, 1000), { left: 999, top: 500, width: 1, height: 1 });
  assert.deepEqual(pixelBox([1, 1, 1, 1], 200, 100), { left: 199, top: 99, width: 1, height: 1 });
});

test('crop-resize stretches exactly the pixel box of the full-resolution film', () => {
  const w = 300;
  const h = 200;
  const gray = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) gray[y * w + x] = x < 150 ? 0 : 200;
  const right = cropResize(gray, w, h, [0.5, 0, 1, 1], 64);
  assert.ok(right.every((v) => Math.abs(v - 200) < 1e-9));
  // a box straddling the edge: same as cropping by hand then resizing
  const box: [number, number, number, number] = [0.4, 0.1, 0.7, 0.6];
  const pb = pixelBox(box, w, h);
  const manual = new Uint8Array(pb.width * pb.height);
  for (let y = 0; y < pb.height; y++)
    for (let x = 0; x < pb.width; x++) manual[y * pb.width + x] = gray[(pb.top + y) * w + pb.left + x]!;
  assert.deepEqual(cropResize(gray, w, h, box, 32), resizeArea(manual, pb.width, pb.height, 32, 32));
  assert.deepEqual(cropResize(gray, w, h, null, 32), resizeArea(gray, w, h, 32, 32));
});

test('CTR: whole-mask heart width over the widest lung row (outer edge to outer edge)', () => {
  const lung = fill(fill(mask(), 10, 20, 49, 99), 70, 20, 109, 99); // rows 20..99: 10..109 = 100 wide
  fill(lung, 5, 10, 50, 10); // a row starting further out but only 46 wide: the extent is not the row width
  const heart = fill(mask(), 45, 60, 84, 99); // 40 wide
  heart.data[30 * G + 90] = 1; // a border on another row: 45..90 = 46 wide
  near(cardiothoracicRatio(lung, heart, 40, 0.03)!, 46 / 100);
});

test('CTR lines: the two measured widths as lines on the film, whose lengths give the ratio', () => {
  const lung = fill(fill(mask(), 10, 20, 49, 99), 70, 20, 109, 99);
  const heart = fill(mask(), 45, 60, 84, 99);
  heart.data[30 * G + 90] = 1;
  const lines = ctrWidthLines(lung, heart)!;
  // Heart: pixel edges 45..91, at the middle of its rows 30..99; thorax: the first widest row (20), 10..110.
  assert.deepEqual(lines.heart, [45 / G, 65 / G, 91 / G, 65 / G]);
  assert.deepEqual(lines.thorax, [10 / G, 20.5 / G, 110 / G, 20.5 / G]);
  const length = (l: number[]) => l[2]! - l[0]!;
  near(length(lines.heart) / length(lines.thorax), cardiothoracicRatio(lung, heart, 40, 0.03)!);
  assert.equal(ctrWidthLines(lung, mask()), null, 'no heart, no line');
});

test('CTR: none without enough heart or lung pixels', () => {
  const lung = fill(fill(mask(), 10, 20, 49, 99), 70, 20, 109, 99);
  assert.equal(cardiothoracicRatio(lung, fill(mask(), 60, 60, 64, 66), 40, 0.03), null); // 35 heart pixels
  assert.ok(cardiothoracicRatio(lung, fill(mask(), 60, 60, 64, 67), 40, 0.03)); // 40
  assert.equal(cardiothoracicRatio(fill(mask(), 10, 10, 19, 19), fill(mask(), 60, 60, 79, 79), 40, 0.03), null);
});

/** Closed loops of an "M x y L x y … Z" path, as lists of "x y" points. */
function loopsOf(d: string): string[][] {
  if (d === '') return [];
  return d
    .split(' Z')
    .filter((p) => p.trim())
    .map((p) => [...p.matchAll(/[ML] (\S+) (\S+)/g)].map((m) => `${m[1]} ${m[2]}`));
}

/** The loops' sides as sorted "a - b" strings. */
function sides(d: string): string[] {
  return loopsOf(d)
    .flatMap((pts) => pts.map((p, i) => [p, pts[(i + 1) % pts.length]!].sort().join(' - ')))
    .sort();
}

test('contours: a single cell is a diamond through the midpoints to its neighbours', () => {
  const m = fill(mask(4, 4), 1, 1, 1, 1); // centre (0.375, 0.375), neighbours 0.25 away
  const want = [
    ['0.25 0.375', '0.375 0.25'],
    ['0.375 0.25', '0.5 0.375'],
    ['0.5 0.375', '0.375 0.5'],
    ['0.375 0.5', '0.25 0.375'],
  ].map((s) => s.sort().join(' - '));
  const d = maskContour(m);
  assert.match(d, /^M [\d.]+ [\d.]+( L [\d.]+ [\d.]+){3} Z$/);
  assert.deepEqual(sides(d), want.sort());
  assert.equal(maskContour(mask(4, 4)), '');
});

test('contours: shapes touching the edge close on it; one closed loop per shape; straight runs are one side', () => {
  const full = maskContour(fill(mask(2, 2), 0, 0, 1, 1));
  assert.deepEqual(sides(full), [
    '0 0.25 - 0 0.75',
    '0 0.25 - 0.25 0',
    '0 0.75 - 0.25 1',
    '0.25 0 - 0.75 0',
    '0.25 1 - 0.75 1',
    '0.75 0 - 1 0.25',
    '0.75 1 - 1 0.75',
    '1 0.25 - 1 0.75',
  ]);
  // a filled rectangle: four straight sides and four cut corners, whatever its size
  const rect = loopsOf(maskContour(fill(mask(), 20, 30, 59, 89)));
  assert.equal(rect.length, 1);
  assert.equal(rect[0]!.length, 8);
  assert.ok(
    rect[0]!.includes(`${fmt(20 / G)} ${fmt(30.5 / G)}`) && rect[0]!.includes(`${fmt(20.5 / G)} ${fmt(30 / G)}`),
    'corner cut at the first cell',
  );
  const blob = fill(fill(mask(), 20, 30, 59, 89), 70, 30, 109, 89);
  blob.data[10 * G + 64] = 1;
  const d = maskContour(blob);
  assert.equal(loopsOf(d).length, 3);
  assert.match(d, /^(M \d(\.\d{1,4})? \d(\.\d{1,4})?( L \d(\.\d{1,4})? \d(\.\d{1,4})?)+ Z( |$))+$/);
  for (const v of d.match(/[\d.]+/g)!) assert.ok(Number(v) >= 0 && Number(v) <= 1);
});

/** A model with one CAM channel for the heatmap tests. */
function camModel(): LoadedModel {
  const manifest = { cams: { output: 'cams', channels: ['a'] } } as unknown as ModelManifest;
  return {
    dir: '',
    modelPath: '',
    manifest,
    findings: [{ label: 'fa', heatmap: 'a', display: 'A', threshold: 0.5, source: { head: 'h', label: 'a' } }],
    checks: {} as LoadedModel['checks'],
  };
}

/** A 7x7 CAM whose value is the column index: bilinear samples are then the clamped x - 0.5. */
const gradient = { data: Float32Array.from({ length: 49 }, (_, k) => k % 7), dims: [1, 1, 7, 7] };
const camX = (pos: number): number => Math.min(6, Math.max(0, pos - 0.5));

test('heatmaps are confined to the lungs: zero outside the lung mask, min-max over lung cells', () => {
  const lung = fill(mask(), 30, 40, 90, 80);
  const frame = { filmWidth: 1000, filmHeight: 800, crop: { left: 250, top: 100, width: 500, height: 600 } };
  const [h] = lungHeatmaps(camModel(), gradient, lung, true, frame);
  assert.ok(h);
  assert.equal(h.label, 'fa');
  assert.deepEqual([h.width, h.height], [G, G]);
  const at = (j: number): number => camX(((((j + 0.5) / G) * 1000 - 250) / 500) * 7);
  const lo = at(30);
  const hi = at(90);
  let inside = 0;
  for (let i = 0; i < G; i++) {
    for (let j = 0; j < G; j++) {
      const v: number = h.data[i * G + j]!;
      if (!lung.data[i * G + j]) assert.equal(v, 0, `cell ${i},${j} outside the lungs`);
      else {
        inside++;
        near(v, (at(j) - lo) / (hi - lo), 1e-6);
      }
    }
  }
  assert.equal(inside, 61 * 41);
  assert.equal(Math.max(...h.data), 1);
});

test('heatmaps without a lung field cover the whole film', () => {
  const frame = { filmWidth: 128, filmHeight: 128, crop: { left: 0, top: 0, width: 128, height: 128 } };
  const [h] = lungHeatmaps(camModel(), gradient, mask(), false, frame);
  const at = (j: number): number => camX(((j + 0.5) / G) * 7);
  for (const j of [0, 10, 64, 127]) near(h!.data[5 * G + j]!, (at(j) - at(0)) / (at(127) - at(0)), 1e-6);
});

/** A one-head sigmoid model: pneumonia, viral | pneumonia, cardiomegaly. */
function headModel(findings: ManifestFinding[], temperature: number | number[] = 1): LoadedModel {
  const manifest = {
    heads: [
      {
        name: 'main',
        output: 'logits',
        activation: 'sigmoid',
        labels: ['pneumonia', 'viral', 'cardiomegaly'],
        temperature,
      },
    ],
  } as unknown as ModelManifest;
  return {
    dir: '',
    modelPath: '',
    manifest,
    findings: findings.map((f) => ({ ...f, display: f.label, threshold: 0.5 })),
    checks: {} as LoadedModel['checks'],
  };
}

const sig = (z: number): number => 1 / (1 + Math.exp(-z));
const logits = { logits: { data: Float32Array.from([0.8, -0.4, 1.5]), dims: [1, 3] } };

test('findings: finding-level conditionalOn gives the joint probability, complementOf 1 - p', () => {
  const cond = { head: 'main', label: 'pneumonia' };
  const m = headModel([
    { label: 'pneumonia', source: { head: 'main', label: 'pneumonia' } },
    { label: 'pneumonia_viral', source: { head: 'main', label: 'viral' }, conditionalOn: cond },
    { label: 'pneumonia_bacterial', source: { head: 'main', complementOf: 'viral' }, conditionalOn: cond },
  ]);
  const p = findingProbabilities(m, logits);
  const pn = sig(Math.fround(0.8));
  const pv = sig(Math.fround(-0.4));
  near(p.get('pneumonia')!, pn);
  near(p.get('pneumonia_viral')!, pv * pn);
  near(p.get('pneumonia_bacterial')!, (1 - pv) * pn);
  near(p.get('pneumonia_viral')! + p.get('pneumonia_bacterial')!, p.get('pneumonia')!);
});

test('findings: per-label temperatures', () => {
  const m = headModel(
    [
      { label: 'pneumonia', source: { head: 'main', label: 'pneumonia' } },
      { label: 'cardiomegaly', source: { head: 'main', label: 'cardiomegaly' } },
    ],
    [2, 1, 0.5],
  );
  const p = findingProbabilities(m, logits);
  near(p.get('pneumonia')!, sig(Math.fround(0.8) / 2));
  near(p.get('cardiomegaly')!, sig(Math.fround(1.5) / 0.5));
});

test('findings: ctrCombine = sigmoid(logitWeight * logit(p) + ctrWeight * ctr + bias), only with a CTR', () => {
  const w = { logitWeight: 0.5, ctrWeight: 10, bias: -5 };
  const m = headModel([{ label: 'cardiomegaly', source: { head: 'main', label: 'cardiomegaly' }, ctrCombine: w }]);
  const l = Math.fround(1.5);
  near(findingProbabilities(m, logits, 0.62).get('cardiomegaly')!, sig(0.5 * l + 6.2 - 5), 1e-12);
  near(findingProbabilities(m, logits, null).get('cardiomegaly')!, sig(l));
  near(findingProbabilities(m, logits).get('cardiomegaly')!, sig(l));
  // probabilities that round to 0 or 1 stay finite
  assert.ok(Number.isFinite(combineCtr(1, 0.5, w)) && combineCtr(1, 0.5, w) > 0.99);
  assert.ok(combineCtr(0, 0.5, { ...w, logitWeight: 0 }) > 0);
});

test('findings: a CTR-combined finding is called at thresholdWithoutCtr when the CTR is missing or flagged', () => {
  const w = { logitWeight: 0.5, ctrWeight: 10, bias: -5 };
  const m = headModel([
    {
      label: 'cardiomegaly',
      source: { head: 'main', label: 'cardiomegaly' },
      ctrCombine: w,
      thresholdWithoutCtr: 0.6,
    },
    { label: 'pneumonia', source: { head: 'main', label: 'pneumonia' }, ageGroup: 'pediatric' },
  ]);
  // (headModel resolves every threshold to 0.5.) Without a CTR p = sig(1.5) = 0.82 at 0.6: positive;
  // with a CTR of 0.3 p = sig(0.75 + 3 - 5) = 0.22 at 0.5: negative
  const without = composeFindings(m, findingProbabilities(m, logits, null), null).findings[0]!;
  assert.equal(without.threshold, 0.6);
  assert.equal(without.call, 'positive');
  const withCtr = composeFindings(m, findingProbabilities(m, logits, 0.3), 0.3).findings;
  assert.equal(withCtr[0]!.threshold, 0.5);
  assert.equal(withCtr[0]!.call, 'negative');
  // the age group travels with the finding for the server to decide
  assert.equal(withCtr[1]!.ageGroup, 'pediatric');
  assert.equal('ageGroup' in withCtr[0]!, false);
});

test('anatomy: implausible outlines keep the measured ratio but give no CTR, with the reason', () => {
  const spec = { boxMargin: 0.08, minLungFraction: 0.03, minHeartPixels: 40, ctrReference: 0.5 };
  const lung = fill(fill(mask(), 20, 20, 55, 100), 72, 20, 107, 100); // x 20..107, y 20..100
  const normalHeart = fill(mask(), 50, 60, 80, 90);
  const ok = measureAnatomy(spec as never, { lung, heart: normalHeart }).anatomy;
  near(ok.ctr!, 31 / 88);
  assert.equal(ok.ctrMeasured, ok.ctr);
  assert.equal(ok.ctrUnreliable, null);
  // a "heart" from above the apices (the whole mediastinum) down
  const inlet = measureAnatomy(spec as never, { lung, heart: fill(mask(), 50, 5, 80, 90) }).anatomy;
  assert.equal(inlet.ctr, null);
  near(inlet.ctrMeasured!, 31 / 88);
  assert.equal(inlet.ctrUnreliable?.code, 'heart_at_inlet');
  assert.match(CTR_UNRELIABLE_REASONS[inlet.ctrUnreliable!.code], /thoracic inlet/);
  assert.deepEqual(inlet.flags, [], 'a flagged ratio is not a missing heart');
  // the manifest's thresholds replace the defaults one by one
  const strict = measureAnatomy({ ...spec, ctrChecks: { maxCtr: 0.3 } } as never, { lung, heart: normalHeart });
  assert.equal(strict.anatomy.ctrUnreliable?.code, 'heart_too_wide');
});

// ------------------------------------------------------------------ end to end on model 2

const model = await loadModel(loadBaseConfig().MODEL_DIR);
const modelTwo = model.manifest.anatomy !== undefined;
const skip = modelTwo ? false : 'the model under test (MODEL_DIR) has no anatomy stage';

test.skipIf(skip)(
  'model 2: accepted radiographs carry the anatomy result, not-assessed list and lung-confined heatmaps',
  async () => {
    const files = (await readdir('tests/fixtures/cxr')).filter((f) => f.endsWith('.jpg'));
    for (const f of files.slice(0, 3)) {
      const r = await runPipeline(await readFile(`tests/fixtures/cxr/${f}`), model);
      assert.equal(r.gate.accepted, true, f);
      const a = r.anatomy!;
      assert.ok(a, 'anatomy result');
      assert.equal(a.ctrReference, model.manifest.anatomy!.ctrReference);
      // A ratio found not measurable (its plausibility checks, or the silhouette check of issue 42)
      // takes the findings that require it out, as 'no_ctr'.
      const noCtr = (r.notAssessed ?? []).filter((n) => n.code === 'no_ctr');
      assert.ok(noCtr.length === 0 || a.ctr === null, 'no_ctr only without a ratio');
      assert.deepEqual(
        r.notAssessed?.filter((n) => n.code !== 'no_ctr'),
        model.manifest.notAssessed ?? [],
      );
      assert.equal(r.findings.length + noCtr.length, model.findings.length);
      assert.ok(a.lungBox === null ? a.flags.includes('no_lung_field') : a.lungBox.every((v) => v >= 0 && v <= 1));
      assert.ok(a.ctr === null ? a.flags.includes('no_heart') || Boolean(a.ctrUnreliable) : a.ctr > 0);
      assert.ok(a.contours.lung.startsWith('M '));
      for (const key of ['anatomy', 'measure', 'crop', 'classifier', 'compose', 'total'])
        assert.ok(key in r.timingsMs, key);
      for (const h of r.heatmaps) {
        assert.ok(Array.from(h.data).every((v) => v >= 0 && v <= 1));
        if (a.lungBox)
          assert.ok(
            h.data.length === h.width * h.height && Array.from(h.data).some((v) => v === 0),
            'zero outside the lungs',
          );
      }
    }
  },
);

test.skipIf(skip)('model 2: a refused image has no anatomy result', async () => {
  const r = await runPipeline(await readFile('tests/fixtures/gate/ct_slice.png'), model);
  assert.equal(r.gate.accepted, false);
  assert.equal(r.anatomy, null);
  assert.deepEqual(r.notAssessed, []);
});

test.skipIf(skip)('model 2: an anatomy file that does not match its sha256 is refused', async () => {
  const { mkdtemp, writeFile, copyFile } = await import('node:fs/promises');
  const dir = await mkdtemp('/tmp/model2-');
  const m = JSON.parse(await readFile(`${model.dir}/manifest.json`, 'utf8')) as ModelManifest;
  await copyFile(model.modelPath, `${dir}/${m.file}`);
  await copyFile(model.anatomyPath!, `${dir}/${m.anatomy!.file}`);
  await writeFile(`${dir}/manifest.json`, JSON.stringify({ ...m, anatomy: { ...m.anatomy, sha256: '0'.repeat(64) } }));
  await assert.rejects(loadModel(dir), /sha256 of .*anatomy/);
});
