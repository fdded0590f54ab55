import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, test } from 'vitest';
import { ZCardText } from '@contracts/model/card.js';
import { ZModelEvaluation } from '@contracts/model/evaluation.js';
import { parseModelManifest, ZModelManifest } from '@contracts/model/manifest.js';
import { ZModelMetrics } from '@contracts/model/metrics.js';
import { MODEL_FILE_SCHEMAS, modelFileJsonSchema, type TModelFileName } from '../../scripts/write-model-schema.js';

// One contract for the model's files (contracts/model/): the shipped files validate, the JSON
// Schema the Python side checks against is the zod schema's, and bad manifests are refused.
const json = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
const shipped = json('models/cxr/manifest.json') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('model files contract', () => {
  test('the shipped manifest, metrics, evaluation and card validate; so does the model-1 test fixture', () => {
    assert.deepEqual(parseModelManifest(shipped), { ok: true, manifest: ZModelManifest.parse(shipped) });
    assert.ok(parseModelManifest(json('tests/fixtures/tiny-model/manifest.json')).ok);
    const metrics = ZModelMetrics.parse(json('models/cxr/metrics.json'));
    assert.equal(metrics.modelVersion, shipped.modelVersion);
    assert.ok(Object.keys(metrics.findings).length > 0);
    const evaluation = ZModelEvaluation.parse(json('models/cxr/evaluation.json'));
    assert.ok(Object.keys(evaluation.decisions).length > 0);
    assert.ok(Object.keys(evaluation.test).length > 0);
    const card = ZCardText.parse(json('models/cxr/card.json'));
    assert.ok(card.intendedUse.length > 0 && card.limitations.length > 0);
  });

  test.each(Object.keys(MODEL_FILE_SCHEMAS) as TModelFileName[])(
    'models/cxr/%s.schema.json is the zod schema (npx tsx scripts/write-model-schema.ts) and accepts the shipped file',
    (name) => {
      const published = json(`models/cxr/${name}.schema.json`) as object;
      assert.deepEqual(published, modelFileJsonSchema(name), 'regenerate with npx tsx scripts/write-model-schema.ts');
      const validate = new Ajv2020({ strict: false }).compile(published);
      assert.ok(validate(json(`models/cxr/${name}.json`)), JSON.stringify(validate.errors));
    },
  );

  test('the JSON Schemas refuse a wrongly typed field, though the product reads it as "not reported"', () => {
    const ajv = new Ajv2020({ strict: false });
    const manifest = ajv.compile(modelFileJsonSchema('manifest'));
    assert.equal(manifest({ ...shipped, findings: [{ ...shipped.findings[0], ageGroup: 'elderly' }] }), false);
    const metrics = json('models/cxr/metrics.json') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const badFigure = { ...metrics, findings: { x: { auc: '0.9' } } };
    assert.equal(ajv.compile(modelFileJsonSchema('metrics'))(badFigure), false);
    assert.equal(ZModelMetrics.parse(badFigure).findings.x?.auc, null);
    const badEvaluation = { testImages: 'many', decisions: {} };
    assert.equal(ajv.compile(modelFileJsonSchema('evaluation'))(badEvaluation), false);
    assert.equal(ZModelEvaluation.parse(badEvaluation).testImages, null);
    const badCard = { intendedUse: [[{ text: 1 }]], howItWorks: [], limitations: [] };
    assert.equal(ajv.compile(modelFileJsonSchema('card'))(badCard), false);
  });

  test('model 3 additions are accepted; wrong ones are refused with the path', () => {
    const m3 = structuredClone(shipped);
    m3.modelVersion = '3.0.0';
    m3.anatomy.ctrChecks = { maxCtr: 0.8 };
    m3.findings.push({
      label: 'cardiomegaly',
      source: { head: 'main', label: 'cardiomegaly' },
      threshold: 0.5,
      ctrCombine: { logitWeight: 1, ctrWeight: 8, bias: -4 },
      thresholdWithoutCtr: 0.6,
    });
    assert.ok(parseModelManifest(m3).ok);
    const cases: [(m: typeof shipped) => void, RegExp][] = [
      [(m) => (m.findings[2].ageGroup = 'elderly'), /findings\.2\.ageGroup/],
      [
        (m) => delete m.findings[m.findings.length - 1].ctrCombine,
        /cardiomegaly: thresholdWithoutCtr needs ctrCombine/,
      ],
      [(m) => (m.anatomy.ctrChecks.maxCtr = 'high'), /anatomy\.ctrChecks\.maxCtr/],
      [(m) => (m.findings[0].source.label = 'nope'), /finding pneumonia: unknown label in head main/],
      [(m) => (m.input.layout = 'NHWC'), /input\.layout/],
    ];
    for (const [spoil, message] of cases) {
      const bad = structuredClone(m3);
      spoil(bad);
      const r = parseModelManifest(bad);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error, message);
    }
  });

  test('model 4 additions (projection, apWeight, requiresCtr, withdrawn, external figures) are accepted; wrong ones are refused', () => {
    const m4 = structuredClone(shipped);
    m4.modelVersion = '4.0.0';
    m4.projection = { model: 'classifier', output: 'projection', temperature: 1.2, bias: -0.1, threshold: 0.5 };
    m4.findings = m4.findings.filter((f: { label: string }) => f.label !== 'covid19');
    m4.withdrawn = [{ label: 'covid19', display: 'COVID-19 pattern', reason: 'external' }];
    m4.findings.push({
      label: 'cardiomegaly',
      source: { head: 'main', label: 'cardiomegaly' },
      threshold: 0.3,
      ctrCombine: { logitWeight: 0.5, ctrWeight: 12, apWeight: -1.5, bias: -6 },
      requiresCtr: true,
    });
    const parsed = parseModelManifest(m4);
    assert.ok(parsed.ok);
    if (parsed.ok) {
      assert.equal(parsed.manifest.projection?.threshold, 0.5);
      assert.equal(parsed.manifest.findings?.at(-1)?.ctrCombine?.apWeight, -1.5);
      assert.equal(parsed.manifest.withdrawn?.[0]?.label, 'covid19');
    }
    assert.ok(new Ajv2020({ strict: false }).compile(modelFileJsonSchema('manifest'))(m4));
    const cases: [(m: typeof shipped) => void, RegExp][] = [
      [(m) => delete m.projection, /cardiomegaly: ctrCombine.apWeight needs a projection output/],
      [(m) => delete m.findings.at(-1).ctrCombine, /cardiomegaly: requiresCtr needs ctrCombine/],
      [(m) => (m.projection.temperature = 0), /projection\.temperature/],
      [(m) => (m.projection.model = 'gate'), /projection\.model/],
      [(m) => (m.withdrawn[0].label = 'pneumonia'), /finding pneumonia: also listed as withdrawn/],
      [(m) => (m.withdrawn[0].reason = 'internal'), /withdrawn\.0\.reason/],
    ];
    for (const [spoil, message] of cases) {
      const bad = structuredClone(m4);
      spoil(bad);
      const r = parseModelManifest(bad);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error, message);
    }
  });

  test('metrics.json external figures are read; a malformed candidate reads as not reported, the rest kept', () => {
    const metrics = json('models/cxr/metrics.json') as Record<string, unknown>;
    // The shipped model 4 file has them; the edits below check the lenient reading.
    assert.ok(Object.keys(ZModelMetrics.parse(metrics).external?.candidates ?? {}).length > 0);
    const external = {
      dataset: 'cxr-external-val',
      films: 388,
      patients: 343,
      caveat: 'operating points were chosen on these films',
      shipRule: 'lower 95 % bound >= 0.70',
      candidates: {
        covid19: {
          display: 'COVID-19 pattern',
          population: 'COVID-19 vs other adult pneumonia',
          auc: 0.63,
          aucCi95: [0.52, 0.74],
          positives: 37,
          negatives: 16,
          sensitivity: null,
          specificity: null,
          threshold: null,
          shipped: false,
        },
        edema: { auc: 'high' },
      },
      projection: { auc: 0.95, aucCi95: [0.92, 0.97], n: 300 },
    };
    const parsed = ZModelMetrics.parse({ ...metrics, external });
    assert.equal(parsed.external?.candidates.covid19?.auc, 0.63);
    assert.deepEqual(parsed.external?.candidates.covid19?.aucCi95, [0.52, 0.74]);
    assert.equal(parsed.external?.candidates.edema?.auc, null);
    assert.equal(parsed.external?.projection?.n, 300);
    const ajv = new Ajv2020({ strict: false }).compile(modelFileJsonSchema('metrics'));
    assert.equal(ajv({ ...metrics, external }), false, 'the schema holds the Python writer to numbers');
    assert.ok(ajv({ ...metrics, external: { ...external, candidates: { covid19: external.candidates.covid19 } } }));
  });
});
