import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { composeReport, pct } from '../../server/src/services/analysis/compose-report.js';
import { sampleResult, sampleResultV2 } from './support/fixtures.js';

const adult = { full_name: 'A', age: '61', medical_history: 'None' };
const child = { full_name: 'B', age: '9', medical_history: 'None' };
const CTR_LINE = 'Cardiothoracic ratio 0.56 (usual upper reference 0.50 on an adult PA film)';

describe('compose-report with a model-2 result (anatomy, not assessed)', () => {
  test('lists the shipped findings as before, then the not-assessed ones with the reason', () => {
    const r = sampleResultV2();
    const { content, disease } = composeReport(r, adult);
    for (const f of r.findings)
      assert.ok(content.includes(`| ${f.display} | ${pct(f.probability)} | ${pct(f.threshold)} |`), f.label);
    assert.ok(
      content.includes(
        'Not assessed: Hernia, Fibrosis, Atelectasis (this model version cannot back these findings on held-out data).',
      ),
    );
    // A not-assessed finding never gets a row of the table.
    assert.doesNotMatch(content, /\| Hernia \|/);
    assert.equal(disease, 'Cardiomegaly');
  });

  test('a heart size line with the CTR and its reference, and the AP/pediatric caveat; adult', () => {
    const { content } = composeReport(sampleResultV2(), adult);
    assert.match(content, /### Heart size/);
    assert.ok(content.includes(`- ${CTR_LINE}.`), content);
    assert.match(content, /less reliable on AP films/);
    assert.match(content, /pediatric films/);
    assert.doesNotMatch(content, /this is a pediatric film/);
  });

  test('a patient under 18 is said to have a pediatric film, where the adult reference does not apply', () => {
    const { content } = composeReport(sampleResultV2(), child);
    assert.ok(content.includes(CTR_LINE));
    assert.match(content, /Patient age 9: this is a pediatric film, for which the adult reference does not apply/);
    assert.match(content, /Patient age 9: pediatric\. Most finding labels were learned from adult films/);
  });

  test('no CTR: the heart size line says why (no_heart), with no ratio', () => {
    const r = sampleResultV2({ anatomy: { ...sampleResultV2().anatomy!, ctr: null, flags: ['no_heart'] } });
    const { content } = composeReport(r, adult);
    assert.match(
      content,
      /Heart size: no cardiothoracic ratio was measured: the heart outline could not be found reliably on this film\./,
    );
    assert.doesNotMatch(content, /Cardiothoracic ratio 0\./);
  });

  test('nothing is hard-coded to one list: another shipped/not-assessed split renders as stored', () => {
    const r = sampleResultV2({
      findings: [
        { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.12, threshold: 0.5, call: 'negative' },
        { label: 'nodule', display: 'Nodule', probability: 0.08, threshold: 0.3, call: 'negative' },
      ],
      notAssessed: [
        { label: 'pneumonia', display: 'Pneumonia / lung opacity' },
        { label: 'covid19', display: 'COVID-19 pattern' },
      ],
      topFinding: null,
    });
    const { content, disease } = composeReport(r, adult);
    assert.equal(disease, null);
    assert.match(content, /\| Nodule \| 8\.0% \| 30\.0% \| Not flagged \|/);
    assert.match(content, /Not assessed: Pneumonia \/ lung opacity, COVID-19 pattern \(this model version/);
    assert.match(content, /No finding flagged\. The conditions the model assesses: Nodule\./);
    assert.match(content, /for example pneumonia \/ lung opacity, covid-19 pattern or fractures/);
    assert.doesNotMatch(content, /\| Pneumonia/);
  });

  test("a model-1 result (no anatomy, no notAssessed) has neither line and keeps model 1's caveats", () => {
    const { content } = composeReport(sampleResult(), adult);
    assert.doesNotMatch(content, /Heart size|Cardiothoracic|Not assessed/);
    assert.match(content, /trained on public datasets in which every pneumonia image comes from young children/);
    assert.match(content, /learned pneumonia only from pediatric films/);
  });

  test('model 2 gets its own training-data caveat and age remarks', () => {
    const viral = sampleResultV2({
      findings: [
        ...sampleResultV2().findings,
        {
          label: 'pneumonia_viral',
          display: 'Viral pneumonia (pediatric hint)',
          probability: 0.61,
          threshold: 0.5,
          call: 'positive',
        },
      ],
    });
    const { content } = composeReport(viral, adult);
    assert.match(content, /This model version was trained on public datasets/);
    assert.match(content, /bacterial\/viral hints were learned only from films of young children/);
    assert.doesNotMatch(content, /learned pneumonia only from pediatric films/);
  });
});

describe('the stored result schema keeps anatomy and notAssessed', () => {
  test('parse keeps them as sent; a model-1 result stays without them', () => {
    const r = sampleResultV2();
    const parsed = ZStoredResult.parse(JSON.parse(JSON.stringify(r)));
    assert.deepEqual(parsed.anatomy, r.anatomy);
    assert.deepEqual(parsed.notAssessed, r.notAssessed);
    const v1 = ZStoredResult.parse(JSON.parse(JSON.stringify(sampleResult())));
    assert.equal(v1.anatomy, undefined);
    assert.equal(v1.notAssessed, undefined);
  });

  test('contours must be SVG path data: markup is dropped with the anatomy, the findings stand', () => {
    const bad = {
      ...sampleResultV2(),
      anatomy: { ...sampleResultV2().anatomy!, contours: { lung: '"/><script>alert(1)</script>', heart: 'M0 0' } },
    };
    const parsed = ZStoredResult.parse(JSON.parse(JSON.stringify(bad)));
    assert.equal(parsed.anatomy, null);
    assert.equal(parsed.findings.length, sampleResultV2().findings.length);
  });
});
