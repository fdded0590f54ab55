import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { EXPORT_DISCLAIMER, EXPORT_SCHEMA_ID, ZExportReport, type TExportReport } from '@contracts/schemas/export.js';
import { buildFhirBundle, CTR_CODE } from '../../server/src/services/export/build-fhir.js';
import { renderDocx } from '../../server/src/services/export/render-docx.js';
import { renderPdf } from '../../server/src/services/export/render-pdf.js';
import { signedExport } from '../../server/src/services/export/signed-export.js';
import type { TReport } from '@contracts/schemas/report.js';
import { RESULT_V2 } from './analysed-chat.js';
import { docxText } from './docx-text.js';
import { checkFhirBundle } from './fhir-check.js';

/** The export renderers on hand-made model-2 reports (no database: the load path is in exports.test.ts). */
const dir = mkdtempSync(join(tmpdir(), 'cxr-export-v2-'));
const squash = (s: string) => s.replace(/\s+/g, ' ');
const CTR_LINE = 'Cardiothoracic ratio 0.56 (usual upper reference 0.50 on an adult PA film).';
const NOT_ASSESSED_LINE =
  'Not assessed: Hernia, Fibrosis (this model version cannot back these findings on held-out data).';

function report(over: Partial<TExportReport> = {}): TExportReport {
  const now = new Date().toISOString();
  return ZExportReport.parse({
    schema: EXPORT_SCHEMA_ID,
    generatedAt: now,
    chat: { id: crypto.randomUUID(), title: 'Model 2 - X-Ray Analysis', createdAt: now },
    analysis: { id: crypto.randomUUID(), status: 'completed', createdAt: now, completedAt: now },
    patient: { name: 'Test Patient', age: 61, medicalHistory: [] },
    model: { name: RESULT_V2.modelName, version: RESULT_V2.modelVersion, cardUrl: 'http://localhost:3000/model-card' },
    gate: { accepted: true, reason: null, flags: [] },
    findings: RESULT_V2.findings,
    notAssessed: RESULT_V2.notAssessed,
    anatomy: RESULT_V2.anatomy,
    projection: null,
    withdrawn: [],
    topFinding: { label: 'cardiomegaly', display: 'Cardiomegaly' },
    report: { format: 'markdown', text: '## Chest X-ray analysis\n\nSee the findings.' },
    heatmap: null,
    disclaimer: EXPORT_DISCLAIMER,
    ...over,
  });
}

async function pdfText(r: TExportReport): Promise<string> {
  const path = join(dir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(path, await renderPdf(r));
  return squash(execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }));
}

async function wordText(r: TExportReport): Promise<string> {
  const path = join(dir, `${crypto.randomUUID()}.docx`);
  writeFileSync(path, await renderDocx(r));
  return squash(docxText(path));
}

type TRes = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const resources = (r: TExportReport): TRes[] =>
  (buildFhirBundle(r).entry as { resource: TRes }[]).map((e) => e.resource);
const observations = (r: TExportReport) => resources(r).filter((x) => x.resourceType === 'Observation');

describe('exports of a model-2 result', () => {
  test('PDF and DOCX show the CTR line with its caveat and the not-assessed line', async () => {
    for (const text of [await pdfText(report()), await wordText(report())]) {
      assert.ok(text.includes(CTR_LINE), text);
      assert.ok(text.includes(NOT_ASSESSED_LINE), text);
      assert.match(text, /less reliable on AP films/);
      assert.match(text, /Cardiomegaly 74\.0% 55\.0% Likely/);
    }
  });

  test('a child: the pediatric film is named; no CTR: the reason is given instead', async () => {
    assert.match(
      await pdfText(report({ patient: { name: 'Kid', age: 9, medicalHistory: [] } })),
      /Patient age 9: this is a pediatric film/,
    );
    const noHeart = report({
      anatomy: { ...RESULT_V2.anatomy, lungBox: [...RESULT_V2.anatomy.lungBox], ctr: null, flags: ['no_heart'] },
    });
    const text = await wordText(noHeart);
    assert.match(
      text,
      /Heart size: no cardiothoracic ratio was measured: the heart outline could not be found reliably on this film\./,
    );
    assert.doesNotMatch(text, /Cardiothoracic ratio 0\./);
  });

  test('FHIR: one Observation per shipped finding, one for the CTR (ratio, unit "1"), one per not-assessed finding; valid', () => {
    const r = report();
    const bundle = buildFhirBundle(r);
    assert.deepEqual(checkFhirBundle(bundle), []);
    const obs = observations(r);
    for (const f of r.findings) {
      const o = obs.find((x) => x.code.coding[0].code === f.label);
      assert.equal(o?.valueQuantity.value, f.probability, f.label);
    }
    const ctr = obs.find((x) => x.code.coding[0].code === CTR_CODE);
    assert.deepEqual(ctr?.valueQuantity, { value: 0.5634, unit: '1', system: 'http://unitsofmeasure.org', code: '1' });
    assert.equal(ctr?.referenceRange[0].high.value, 0.5);
    assert.equal(ctr?.referenceRange[0].high.unit, '1');
    assert.match(ctr?.note[0].text, /less reliable on AP films/);
    for (const n of r.notAssessed) {
      const o = obs.find((x) => x.code.coding[0].code === n.label);
      assert.ok(o, n.label);
      assert.equal(o.valueQuantity, undefined);
      assert.equal(o.dataAbsentReason.coding[0].code, 'not-performed');
      assert.equal(o.code.text, n.display);
    }
    const [dr] = resources(r).filter((x) => x.resourceType === 'DiagnosticReport');
    assert.equal(dr?.result.length, r.findings.length + 1 + r.notAssessed.length);
    assert.match(dr?.conclusion, /Cardiothoracic ratio 0\.56/);
    assert.ok(dr?.conclusion.includes(NOT_ASSESSED_LINE));
  });

  test('FHIR: an unmeasured CTR has no value and says why; a model-1 report has neither extra Observation', () => {
    const noHeart = report({ anatomy: { ...RESULT_V2.anatomy, lungBox: null, ctr: null, flags: ['no_heart'] } });
    assert.deepEqual(checkFhirBundle(buildFhirBundle(noHeart)), []);
    const ctr = observations(noHeart).find((x) => x.code.coding[0].code === CTR_CODE);
    assert.equal(ctr?.valueQuantity, undefined);
    assert.match(ctr?.dataAbsentReason.text, /heart outline could not be found/);
    const v1 = report({ anatomy: null, notAssessed: [] });
    assert.equal(observations(v1).length, r1Count(v1));
  });

  test('a refused image: neither a CTR nor a not-assessed list in any format', async () => {
    const refused = report({
      gate: { accepted: false, reason: 'Not a chest X-ray.', flags: [] },
      findings: [],
      topFinding: null,
      analysis: { ...report().analysis, status: 'refused' },
    });
    assert.equal(
      observations(refused).filter((x) => x.code.coding[0].code === CTR_CODE || x.dataAbsentReason).length,
      0,
    );
    const text = await pdfText(refused);
    assert.doesNotMatch(text, /Cardiothoracic|Not assessed/);
  });
});

describe("report.signed: what the signed report leaves out, by the chat's reading of 'named as present'", () => {
  const signed = (findings: string, impression: string): TReport => ({
    analysisId: crypto.randomUUID(),
    status: 'final',
    sections: { examination: 'Chest radiograph.', comparison: 'None.', findings, impression },
    draftedBy: 'Chest Doctor AI',
    signedBy: 'Dr Reader',
    signedAt: new Date().toISOString(),
    addenda: [],
    canSign: false,
    deliveries: [],
    revision: 1,
  });
  const findings = report().findings;
  test('a finding said to have resolved is removed; one the findings section states is not; the summary score never', () => {
    const resolved = signedExport(signed('Lungs clear.', '1. The cardiomegaly has resolved.'), findings);
    assert.deepEqual(resolved?.removed, [{ label: 'cardiomegaly', display: 'Cardiomegaly' }]);
    const described = signedExport(signed('Heart: mild cardiomegaly.', '1. No acute abnormality.'), findings);
    assert.deepEqual(described?.removed, []);
    assert.deepEqual(described?.added, []);
    const added = signedExport(signed('', '1. Cardiomegaly.\n2. Pleural effusion, small.'), findings);
    assert.deepEqual(added?.added, [{ label: 'pleural_effusion', display: 'Pleural effusion' }]);
    assert.equal(signedExport({ ...signed('', '1. x.'), status: 'draft' }, findings), null);
  });
});

/** Every word pdftotext finds on the PDF's pages, with its box. */
function pdfWords(pdf: Buffer): { page: number; text: string; box: number[] }[] {
  const path = join(dir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(path, pdf);
  const html = execFileSync('pdftotext', ['-bbox', path, '-'], { encoding: 'utf8' });
  const words: { page: number; text: string; box: number[] }[] = [];
  html.split('<page ').forEach((page, i) => {
    for (const m of page.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ))
      words.push({ page: i, text: m[5]!, box: [1, 2, 3, 4].map((k) => Number(m[k])) });
  });
  return words;
}

describe('the PDF findings table', () => {
  test('no text overprints another: a wrapped header or finding name pushes the next row down (issue 49)', async () => {
    const long = report({
      findings: [
        ...RESULT_V2.findings,
        {
          label: 'enlarged_cardiomediastinum',
          display: 'Enlarged cardiomediastinum / Enlarged cardiac silhouette (wide mediastinum)',
          probability: 0.38,
          threshold: 0.3,
          call: 'possible',
        },
        { label: 'pneumothorax', display: 'Pneumothorax', probability: 0.02, threshold: 0.4, call: 'negative' },
      ],
    });
    const words = pdfWords(await renderPdf(long));
    assert.ok(
      words.some((w) => w.text === 'Pneumothorax'),
      'the table was read',
    );
    // Boxes shrunk by 1 pt: glyph boxes of neighbouring lines may touch, they must not overlap.
    const overlaps = words.flatMap((a, i) =>
      words
        .slice(i + 1)
        .filter(
          (b) =>
            a.page === b.page &&
            a.box[0]! + 1 < b.box[2]! &&
            b.box[0]! + 1 < a.box[2]! &&
            a.box[1]! + 1 < b.box[3]! &&
            b.box[1]! + 1 < a.box[3]!,
        )
        .map((b) => `${a.text} / ${b.text}`),
    );
    assert.deepEqual(overlaps, []);
  });
});

/** A model-1 report's Observations: one per finding plus the age (the history is empty here). */
function r1Count(r: TExportReport): number {
  return r.findings.length + (r.patient.age === null ? 0 : 1) + (r.patient.medicalHistory.length ? 1 : 0);
}
