import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, test } from 'vitest';
import { parseModelMetrics } from '@contracts/model/metrics.js';
import type { TExportReport } from '@contracts/schemas/export.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { composeReport } from '../../server/src/services/analysis/compose-report.js';
import { wordWorkerResult } from '../../server/src/services/analysis/word-worker-result.js';
import { groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import { systemPrompt } from '../../server/src/services/chat/responders/openai-responder.js';
import { buildResultObjects } from '../../server/src/services/dicom-node/build-result-objects.js';
import { buildFhirBundle } from '../../server/src/services/export/build-fhir.js';
import { exportOfResult } from '../helpers/export-of-result.js';
import { renderDocx } from '../../server/src/services/export/render-docx.js';
import { renderPdf } from '../../server/src/services/export/render-pdf.js';
import { docxText } from '../export/docx-text.js';
import { sampleResultV2, workerResultOf } from './support/fixtures.js';

// Model 4's words (issue 31 items 3, 4, 5, 7): "Likely" only from 50 %, a finding flagged below
// it reads "Possible — flagged for review"; cardiomegaly from the measured heart on its
// projection; a withdrawn output is a note with its external figure, in every place a result is read.

const METRICS = parseModelMetrics({
  modelVersion: 'test-4.0.0',
  external: {
    dataset: 'cxr-external-val',
    films: 388,
    patients: 343,
    candidates: {
      covid19: {
        display: 'COVID-19 pattern',
        population: 'COVID-19 vs other adult pneumonia',
        auc: 0.634,
        aucCi95: [0.521, 0.741],
        shipped: false,
      },
    },
  },
});

/** A model-4 result as the worker sends it: a possible edema, cardiomegaly from a CTR of 0.61, a PA film, COVID-19 withdrawn. */
function modelFour(over: Partial<TStoredResult> = {}): TStoredResult {
  const base = sampleResultV2({
    modelVersion: 'test-4.0.0',
    findings: [
      { label: 'edema', display: 'Edema', probability: 0.118, threshold: 0.025, call: 'possible' },
      { label: 'cardiomegaly', display: 'Cardiomegaly', probability: 0.81, threshold: 0.3, call: 'positive' },
      { label: 'pleural_effusion', display: 'Pleural effusion', probability: 0.04, threshold: 0.2, call: 'negative' },
    ],
    topFinding: 'cardiomegaly',
    projection: { call: 'PA', probabilityAP: 0.12, source: 'model' },
    withdrawn: [{ label: 'covid19', display: 'COVID-19 pattern', reason: 'external' }],
    ...over,
  });
  base.anatomy = { ...base.anatomy!, ctr: 0.612 };
  return wordWorkerResult(workerResultOf(base), METRICS);
}

const patient = { full_name: 'Test Patient', age: '61', medical_history: 'None' };
const ask = (query: string, result: TStoredResult) =>
  groundedAnswer({ result, query, history: [], patient, metrics: METRICS });

const dir = mkdtempSync(join(tmpdir(), 'cxr-model4-'));
const squash = (s: string) => s.replace(/\s+/g, ' ');
function exportOf(result: TStoredResult): TExportReport {
  const top = result.findings.find((f) => f.label === result.topFinding);
  return exportOfResult(result, {
    topFinding: top ? { label: top.label, display: top.display } : null,
    reportText: 'See the findings.',
  });
}

describe('the finalizer words model 4 codes', () => {
  test('a withdrawn output gets its external figure from metrics.json; another version gets none', () => {
    const r = modelFour();
    assert.deepEqual(r.withdrawn?.[0]?.external, {
      auc: 0.634,
      aucCi95: [0.521, 0.741],
      population: 'COVID-19 vs other adult pneumonia',
    });
    const other = wordWorkerResult(workerResultOf(r), parseModelMetrics({ ...METRICS, modelVersion: '3.0.0' }));
    assert.equal(other.withdrawn?.[0]?.external, null);
  });

  test('a finding that needs the measured heart on a film without a CTR is not assessed with the CTR reason', () => {
    const sent = sampleResultV2({
      findings: [],
      topFinding: null,
      anatomy: {
        ctr: null,
        ctrMeasured: 0.7,
        ctrUnreliable: { code: 'heart_at_inlet', reason: 'x' },
        ctrReference: 0.5,
        lungBox: null,
        contours: { lung: '', heart: '' },
        flags: [],
      },
      notAssessed: [{ label: 'cardiomegaly', display: 'Cardiomegaly', code: 'no_ctr' }],
    });
    const r = wordWorkerResult(workerResultOf(sent));
    assert.equal(
      r.notAssessed?.[0]?.reason,
      'not measurable without a plausible cardiothoracic ratio: the heart outline reaches up to the thoracic inlet',
    );
    const report = composeReport(r, patient).content;
    assert.match(
      report,
      /Not assessed: Cardiomegaly \(not measurable without a plausible cardiothoracic ratio: the heart outline reaches up to the thoracic inlet\)\./,
    );
    assert.doesNotMatch(report, /0\.70/, 'the flagged figure is never shown');
  });
});

describe('the report', () => {
  const report = composeReport(modelFour(), patient).content;

  test('"Possible — flagged for review" below 50 %, "Likely" from 50 %', () => {
    assert.ok(report.includes('| Edema | 11.8% | 2.5% | Possible — flagged for review |'), report);
    assert.ok(report.includes('| Cardiomegaly | 81.0% | 30.0% | Likely |'));
  });

  test("cardiomegaly in the reader's words, the CTR on its projection, the projection and the withdrawn note", () => {
    assert.ok(report.includes('- Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50).'), report);
    assert.ok(
      report.includes('- Cardiothoracic ratio 0.61 on a PA film (usual upper reference 0.50 on an adult PA film).'),
    );
    assert.ok(report.includes('- Projection: PA (read by the model, probability of AP 12%).'));
    assert.ok(
      report.includes(
        'COVID-19 pattern: not reported as a finding (no probability, no call): on films from other hospitals the model separated COVID-19 vs other adult pneumonia at AUROC 0.63 (95% CI 0.52-0.74), too weak to rely on.',
      ),
    );
    assert.doesNotMatch(report, /COVID-19 pattern \|/, 'no row, no probability');
  });

  test('on an AP film the heart is said to be magnified; a DICOM tag is named as the source', () => {
    const ap = composeReport(
      modelFour({ projection: { call: 'AP', probabilityAP: 0.3, source: 'dicom' } }),
      patient,
    ).content;
    assert.ok(
      ap.includes(
        'Enlarged cardiac silhouette — CTR 0.61 on an AP film (reference 0.50 on PA films; the heart is magnified on AP films, so the ratio reads higher than on a PA film).',
      ),
      ap,
    );
    assert.ok(ap.includes("Projection: AP (from the image's DICOM ViewPosition)."));
  });

  test('a possible top finding is flagged for review, never "consistent with"', () => {
    const r = modelFour({
      findings: [{ label: 'edema', display: 'Edema', probability: 0.118, threshold: 0.025, call: 'possible' }],
      topFinding: 'edema',
    });
    const { content, disease } = composeReport(r, patient);
    assert.match(
      content,
      /No finding is likely\. Low-confidence flags for review: \*\*Edema\*\* 11\.8% \(flagged below its Likely point, so that nothing is missed\)/,
    );
    assert.doesNotMatch(content, /consistent with \*\*Edema/);
    assert.equal(disease, 'Edema (possible)');
  });

  test('an analysis stored before "possible" existed reads its flagged 11.8 % as possible', () => {
    const old = sampleResultV2({
      findings: [{ label: 'edema', display: 'Edema', probability: 0.118, threshold: 0.025, call: 'positive' }],
      topFinding: 'edema',
    });
    const stored = wordWorkerResult(workerResultOf(old));
    assert.equal(stored.findings[0]?.call, 'possible');
    assert.ok(
      composeReport(stored, patient).content.includes('| Edema | 11.8% | 2.5% | Possible — flagged for review |'),
    );
  });
});

describe('the chat', () => {
  test('a possible finding is explained as flagged, not likely', () => {
    const answer = ask('what does the edema result mean?', modelFour());
    assert.match(answer, /Possible — flagged for review, 11\.8%/);
    assert.doesNotMatch(answer, /called positive/);
  });

  test('heart size: enlarged cardiac silhouette on its projection', () => {
    const answer = ask(
      'is the heart enlarged?',
      modelFour({ projection: { call: 'AP', probabilityAP: 0.9, source: 'model' } }),
    );
    assert.match(answer, /Enlarged cardiac silhouette — CTR 0\.61 on an AP film/);
    assert.match(answer, /cardiothoracic ratio of 0\.61\*\* on an AP film/);
    assert.match(answer, /the heart is magnified on AP films/);
  });

  test('the LLM prompt says possible is not likely and carries the projection and the withdrawn note', () => {
    const prompt = systemPrompt({ result: modelFour(), query: 'x', history: [], patient });
    assert.match(
      prompt,
      /Edema: probability 11\.8%, threshold 2\.5%, model's call: possible \(flagged for review below 50 %/,
    );
    assert.match(prompt, /Projection: PA/);
    assert.match(prompt, /COVID-19 pattern: not reported as a finding/);
  });
});

describe('the exports', () => {
  const r = exportOf(modelFour());

  test('JSON: possible is its own call; projection and withdrawn travel', () => {
    assert.equal(r.findings.find((f) => f.label === 'edema')?.call, 'possible');
    assert.equal(r.projection?.call, 'PA');
    assert.equal(r.withdrawn[0]?.external?.auc, 0.634);
  });

  test('PDF and DOCX: "Possible — flagged for review", the enlarged heart on a PA film, the projection, the withdrawn note', async () => {
    const pdfPath = join(dir, 'r.pdf');
    writeFileSync(pdfPath, await renderPdf(r));
    const docxPath = join(dir, 'r.docx');
    writeFileSync(docxPath, await renderDocx(r));
    for (const text of [
      squash(execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' })),
      squash(docxText(docxPath)),
    ]) {
      assert.ok(text.includes('Possible — flagged for review'), text);
      assert.ok(text.includes('Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50).'));
      assert.ok(text.includes('PA (read by the model, probability of AP 12%)'));
      assert.ok(text.includes('COVID-19 pattern: not reported as a finding'));
    }
  });

  test('FHIR: a possible finding is not POS and says so; the conclusion names the enlarged heart and the withdrawn output', () => {
    const entries = (buildFhirBundle(r).entry as { resource: Record<string, any> }[]).map((e) => e.resource); // eslint-disable-line @typescript-eslint/no-explicit-any
    const edema = entries.find((e) => e.resourceType === 'Observation' && e.code?.text === 'Edema');
    assert.equal(edema?.interpretation[0].coding[0].code, 'IND');
    assert.equal(edema?.interpretation[0].text, 'Possible — flagged for review');
    const conclusion = entries.find((e) => e.resourceType === 'DiagnosticReport')?.conclusion as string;
    assert.match(conclusion, /Enlarged cardiac silhouette — CTR 0\.61 on a PA film \(reference 0\.50\)/);
    assert.match(conclusion, /COVID-19 pattern: not reported as a finding/);
  });
});

describe('the DICOM SR', () => {
  test('a possible finding is coded "Possible — flagged for review"; the projection, the enlarged heart and the withdrawn note are TEXT items', async () => {
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 90, g: 90, b: 90 } } })
      .png()
      .toBuffer();
    const source = {
      sopClassUid: null,
      sopInstanceUid: '1.2.3.4',
      studyInstanceUid: '1.2.3',
      seriesInstanceUid: null,
      tags: {},
    };
    const { report } = await buildResultObjects({ source, image, result: modelFour() });
    type TItem = {
      ValueType: string;
      TextValue?: string;
      ContentSequence?: TItem[];
      ConceptCodeSequence?: { CodeMeaning: string }[];
    };
    type TNamed = TItem & { ConceptNameCodeSequence?: { CodeMeaning: string }[] };
    const named = (items: TItem[] | undefined, m: string) =>
      (items as TNamed[] | undefined)?.find((i) => i.ConceptNameCodeSequence?.[0]?.CodeMeaning === m);
    const root = report.ContentSequence as TItem[];
    // The AIR tree (TID 1500): a measurement group per finding, the call the group's second CODE.
    const calls = named(root, 'Imaging Measurements')!
      .ContentSequence!.filter((g) => named(g.ContentSequence, 'Finding'))
      .map((g) => g.ContentSequence!.filter((x) => x.ValueType === 'CODE')[1]?.ConceptCodeSequence?.[0]?.CodeMeaning);
    assert.deepEqual(calls, ['Possible — flagged for review', 'Positive', 'Negative']);
    const texts = named(root, 'Qualitative Evaluations')!.ContentSequence!.map((i) => i.TextValue);
    assert.ok(texts.includes('Projection: PA (read by the model, probability of AP 12%).'), texts.join(' | '));
    assert.ok(texts.includes('Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50).'));
    assert.ok(texts.some((t) => t?.startsWith('COVID-19 pattern: not reported as a finding')));
  });
});
