import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { composeRefusal, composeReport, DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { refusedResult, sampleResult } from './support/fixtures.js';

const adult = { full_name: 'A', age: '54', medical_history: 'None' };
const child = { full_name: 'B', age: '4', medical_history: 'Asthma: mild' };

describe('compose-report (pure)', () => {
  test("lists every finding with its calibrated probability, threshold and the model's call", () => {
    const r = sampleResult();
    const { content, disease } = composeReport(r, adult);
    for (const f of r.findings)
      assert.ok(content.includes(`| ${f.display} | ${pct(f.probability)} | ${pct(f.threshold)} |`), f.label);
    assert.match(content, /\| Uncertain \|/);
    assert.equal(disease, 'Pneumonia');
    assert.ok(content.endsWith(`*${DISCLAIMER}*`));
  });

  test('patient context: a child with a COVID-19 signal gets the pediatric caveats and the history', () => {
    const covid = sampleResult({
      topFinding: 'covid19',
      findings: sampleResult().findings.map((f) =>
        f.label === 'covid19'
          ? { ...f, probability: 0.91, call: 'positive' as const }
          : { ...f, probability: 0.05, call: 'negative' as const },
      ),
    });
    const { content } = composeReport(covid, child);
    assert.match(content, /Patient age 4: pediatric/);
    assert.match(content, /never seen COVID-19 in children/);
    assert.match(content, /Asthma: mild/);
    assert.match(content, /confirm with a SARS-CoV-2 test/);
  });

  test('nothing called: no disease, an impression that names what the model does not assess', () => {
    const negative = sampleResult({
      topFinding: null,
      findings: sampleResult().findings.map((f) => ({ ...f, probability: 0.02, call: 'negative' as const })),
    });
    const { content, disease } = composeReport(negative, { ...adult, age: '' });
    assert.equal(disease, null);
    assert.match(content, /does not assess other conditions/);
    assert.match(content, /No age was given/);
  });

  test('a refusal says why and asks for a chest radiograph', () => {
    const { content, disease } = composeRefusal(refusedResult());
    assert.match(content, /colour photograph/);
    assert.match(content, /frontal \(PA or AP\) chest radiograph/);
    assert.equal(disease, null);
  });
});
