import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { describe, test } from 'vitest';
import { callAt, currentCall, isCalled } from '@contracts/finding-call.js';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { ZFinding } from '@contracts/schemas/analysis.js';
import { combineCtr, composeFindings, findingProbabilities } from '../../worker/src/pipeline/compose.js';
import { readProjection } from '../../worker/src/pipeline/read-projection.js';
import {
  loadModel,
  runPipeline,
  type LoadedModel,
  type ManifestFinding,
  type ModelManifest,
} from '../../worker/src/pipeline/run-pipeline.js';

// Model 4's product side of the pipeline: the 'possible' call, the projection output (DICOM wins),
// ctrCombine.apWeight, requiresCtr and withdrawn outputs.

const near = (a: number, b: number, eps = 1e-12): void => assert.ok(Math.abs(a - b) <= eps, `${a} vs ${b}`);
const sig = (z: number): number => 1 / (1 + Math.exp(-z));
const logit = (p: number): number => Math.log(p / (1 - p));

function headModel(findings: (ManifestFinding & { threshold?: number })[], extra: Partial<ModelManifest> = {}) {
  const manifest = {
    heads: [{ name: 'main', output: 'logits', activation: 'sigmoid', labels: ['edema', 'cardiomegaly'] }],
    uncertainMargin: 0.7,
    ...extra,
  } as unknown as ModelManifest;
  return {
    dir: '',
    modelPath: '',
    manifest,
    findings: findings.map((f) => ({ ...f, display: f.label, threshold: f.threshold ?? 0.5 })),
    checks: {} as LoadedModel['checks'],
  } satisfies LoadedModel;
}
const tensor = (...v: number[]) => ({ data: Float32Array.from(v), dims: [1, v.length] });

describe('calls: "positive" only from 50 %', () => {
  test('flagged below 50 % is possible, from 50 % positive; the band and below are unchanged', () => {
    // threshold 0.025 with a 0.7 log-odds band: flagged from sig(logit(0.025) + 0.7) = 0.049
    assert.equal(callAt(0.118, 0.025, 0.7), 'possible');
    assert.equal(callAt(0.5, 0.025, 0.7), 'positive');
    assert.equal(callAt(0.499, 0.025, 0.7), 'possible');
    assert.equal(callAt(0.03, 0.025, 0.7), 'uncertain');
    assert.equal(callAt(0.01, 0.025, 0.7), 'negative');
    // a threshold above 50 %: a flagged finding is always positive
    assert.equal(callAt(0.9, 0.6, 0.7), 'positive');
    assert.ok(isCalled('possible') && isCalled('positive') && !isCalled('uncertain') && !isCalled('negative'));
  });

  test('a stored result from before "possible" reads its 11.8 % "positive" as possible', () => {
    const old = { label: 'edema', display: 'Edema', probability: 0.118, threshold: 0.025, call: 'positive' };
    assert.equal(ZFinding.parse(old).call, 'possible');
    assert.equal(ZFinding.parse({ ...old, probability: 0.73 }).call, 'positive');
    assert.equal(currentCall({ call: 'negative', probability: 0.01 }), 'negative');
  });

  test('the top finding is the most probable called finding, a possible one included', () => {
    const m = headModel([
      { label: 'edema', source: { head: 'main', label: 'edema' }, threshold: 0.025 },
      { label: 'cardiomegaly', source: { head: 'main', label: 'cardiomegaly' }, threshold: 0.9 },
    ]);
    const probs = findingProbabilities(m, { logits: tensor(logit(0.12), logit(0.3)) });
    const { findings, topFinding } = composeFindings(m, probs);
    assert.deepEqual(
      findings.map((f) => f.call),
      ['possible', 'negative'],
    );
    assert.equal(topFinding, 'edema');
  });
});

describe('projection', () => {
  const spec = { model: 'classifier' as const, output: 'projection', temperature: 2, bias: 0.5, threshold: 0.6 };

  test('p(AP) = sigmoid(logit / temperature + bias), AP from the threshold', () => {
    const ap = readProjection(spec, { projection: { data: Float32Array.from([1]), dims: [1, 1] } }, null);
    near(ap!.probabilityAP!, sig(1 / 2 + 0.5));
    assert.equal(ap!.call, 'AP'); // 0.731 >= 0.6
    assert.equal(ap!.source, 'model');
    const pa = readProjection(spec, { projection: { data: Float32Array.from([-1]), dims: [1, 1] } }, null);
    assert.equal(pa!.call, 'PA'); // sig(0) = 0.5 < 0.6
  });

  test('a DICOM ViewPosition wins; the model figure stays beside it', () => {
    const r = readProjection(spec, { projection: { data: Float32Array.from([5]), dims: [1, 1] } }, 'PA');
    assert.equal(r!.call, 'PA');
    assert.equal(r!.source, 'dicom');
    assert.ok(r!.probabilityAP! > 0.9);
    assert.equal(r!.disagrees, true, 'the model reads AP with p > 0.9 (issue 42 item 7)');
    assert.deepEqual(readProjection(undefined, {}, 'AP'), {
      call: 'AP',
      probabilityAP: null,
      source: 'dicom',
      disagrees: false,
    });
    assert.equal(readProjection(undefined, {}, null), null);
  });

  test('a projection output that is missing or not (N, 1) is a broken model', () => {
    assert.throws(() => readProjection(spec, {}, null), /projection output projection missing/);
    assert.throws(() => readProjection(spec, { projection: tensor(1, 2) }, null), /not \(N, 1\)/);
  });

  test('ctrCombine.apWeight is added on AP films only', () => {
    const w = { logitWeight: 0.5, ctrWeight: 10, apWeight: -1.2, bias: -5 };
    near(combineCtr(0.7, 0.55, w, false), sig(0.5 * logit(0.7) + 5.5 - 5));
    near(combineCtr(0.7, 0.55, w, true), sig(0.5 * logit(0.7) + 5.5 - 1.2 - 5));
    const m = headModel([{ label: 'cardiomegaly', source: { head: 'main', label: 'cardiomegaly' }, ctrCombine: w }]);
    const out = { logits: tensor(0, logit(0.7)) };
    assert.ok(
      findingProbabilities(m, out, 0.55, true).get('cardiomegaly')! <
        findingProbabilities(m, out, 0.55).get('cardiomegaly')!,
    );
  });
});

describe('requiresCtr', () => {
  const cardio: ManifestFinding = {
    label: 'cardiomegaly',
    source: { head: 'main', label: 'cardiomegaly' },
    ctrCombine: { logitWeight: 0.5, ctrWeight: 10, bias: -5 },
    requiresCtr: true,
  };
  const m = headModel([{ label: 'edema', source: { head: 'main', label: 'edema' } }, cardio]);
  const out = { logits: tensor(logit(0.1), logit(0.99)) };

  test('without a plausible CTR there is no call at all, never the classifier alone', () => {
    const r = composeFindings(m, findingProbabilities(m, out, null), null);
    assert.deepEqual(
      r.findings.map((f) => f.label),
      ['edema'],
    );
    assert.deepEqual(r.notMeasurable, [{ label: 'cardiomegaly', display: 'cardiomegaly', code: 'no_ctr' }]);
    assert.equal(r.topFinding, null, 'a 99 % classifier output without the heart is not the top finding');
  });

  test('with a CTR it is a finding like any other', () => {
    const r = composeFindings(m, findingProbabilities(m, out, 0.6), 0.6);
    assert.equal(r.findings.find((f) => f.label === 'cardiomegaly')?.call, 'positive');
    assert.deepEqual(r.notMeasurable, []);
  });
});

// ------------------------------------------------------- end to end on the shipped ONNX files

const shipped = await loadModel(loadBaseConfig().MODEL_DIR);
const skip = shipped.manifest.anatomy ? false : 'the model under test (MODEL_DIR) has no anatomy stage';

/** The shipped model folder with its manifest edited (model 4 fields on model 3's nets). */
type TManifestJson = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
async function editedModel(edit: (m: TManifestJson) => void): Promise<LoadedModel> {
  const dir = await mkdtemp('/tmp/model4-');
  const m = JSON.parse(await readFile(`${shipped.dir}/manifest.json`, 'utf8')) as TManifestJson;
  await copyFile(shipped.modelPath, `${dir}/${m.file}`);
  await copyFile(shipped.anatomyPath!, `${dir}/${m.anatomy.file}`);
  edit(m);
  await writeFile(`${dir}/manifest.json`, JSON.stringify(m));
  return loadModel(dir);
}

test.skipIf(skip)('a withdrawn output is no finding and no heatmap; a DICOM projection is reported', async () => {
  const model = await editedModel((m) => {
    m.findings = m.findings.filter((f: { label: string }) => f.label !== 'covid19');
    m.withdrawn = [{ label: 'covid19', display: 'COVID-19 pattern', reason: 'external' }];
  });
  const film = await readFile('tests/fixtures/cxr/' + (await firstFixture()));
  const r = await runPipeline(film, model, { viewPosition: 'AP' });
  assert.equal(r.gate.accepted, true);
  assert.ok(!r.findings.some((f) => f.label === 'covid19'));
  assert.ok(!r.heatmaps.some((h) => h.label === 'covid19'));
  assert.deepEqual(r.withdrawn, [{ label: 'covid19', display: 'COVID-19 pattern', reason: 'external' }]);
  // The DICOM tag wins; the model's own p(AP) stays beside it.
  assert.equal(r.projection?.call, 'AP');
  assert.equal(r.projection?.source, 'dicom');
  assert.ok(
    typeof r.projection?.probabilityAP === 'number' &&
      r.projection.probabilityAP >= 0 &&
      r.projection.probabilityAP <= 1,
  );
  // Without a DICOM tag the shipped model's projection output decides, and its withdrawn outputs are named.
  const plain = await runPipeline(film, shipped);
  assert.equal(plain.projection?.source, 'model');
  assert.equal(
    plain.projection?.call,
    plain.projection!.probabilityAP! >= shipped.manifest.projection!.threshold ? 'AP' : 'PA',
  );
  assert.deepEqual(plain.withdrawn, shipped.manifest.withdrawn ?? []);
  const refused = await runPipeline(await readFile('tests/fixtures/gate/ct_slice.png'), model, { viewPosition: 'PA' });
  assert.equal(refused.projection, null);
  assert.equal('withdrawn' in refused, false);
});

async function firstFixture(): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir('tests/fixtures/cxr')).filter((f) => f.endsWith('.jpg')).sort()[0]!;
}
