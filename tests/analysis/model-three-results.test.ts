import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { PEDIATRIC_ONLY_REASON, type TFinding, type TStoredResult } from '@contracts/schemas/analysis.js';
import { EXPORT_DISCLAIMER, EXPORT_SCHEMA_ID, ZExportReport } from '@contracts/schemas/export.js';
import { analyses, messages } from '../../server/src/db/schema.js';
import { heartSizeLines, notAssessedLine } from '../../server/src/services/analysis/anatomy-text.js';
import { composeReport } from '../../server/src/services/analysis/compose-report.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { withholdByAge } from '../../server/src/services/analysis/withhold-by-age.js';
import { heartSizeText, notAssessed } from '../../server/src/services/chat/responders/grounded-scope.js';
import { buildFhirBundle, CTR_CODE } from '../../server/src/services/export/build-fhir.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { useAppWithUser } from '../helpers/use-app-with-user.js';
import { queuedAnalysis, sampleResultV2, workerResultOf } from './support/fixtures.js';

/**
 * Model 3's result additions: findings validated only in children (withheld unless the patient's
 * age says child) and a CTR whose outlines failed the plausibility checks ("not measurable").
 */

const HINTS: TFinding[] = [
  {
    label: 'pneumonia_bacterial',
    display: 'Bacterial pneumonia (pediatric hint)',
    probability: 0.691,
    threshold: 0.45,
    call: 'positive',
    ageGroup: 'pediatric',
  },
  {
    label: 'pneumonia_viral',
    display: 'Viral pneumonia (pediatric hint)',
    probability: 0.12,
    threshold: 0.33,
    call: 'negative',
    ageGroup: 'pediatric',
  },
];
const withHints = (over: Partial<TStoredResult> = {}) => {
  const base = sampleResultV2();
  return sampleResultV2({
    findings: [...base.findings, ...HINTS],
    topFinding: 'pneumonia_bacterial',
    heatmaps: [{ label: 'pneumonia_bacterial', width: 7, height: 7 }],
    ...over,
  });
};
const flagged = () =>
  sampleResultV2({
    anatomy: {
      ...sampleResultV2().anatomy!,
      ctr: null,
      ctrMeasured: 0.925,
      ctrUnreliable: { code: 'heart_at_inlet', reason: 'the heart outline reaches up to the thoracic inlet' },
    },
  });
const adult = { full_name: 'A', age: '61', medical_history: 'None' };

describe('findings validated only in children', () => {
  test('an adult or an unknown age: withheld, listed as not assessed with the reason, top finding recomputed', () => {
    for (const age of [61, 18, null]) {
      const { result, withheld } = withholdByAge(withHints(), age);
      assert.deepEqual(withheld, ['pneumonia_bacterial', 'pneumonia_viral'], String(age));
      assert.ok(!result.findings.some((f) => f.ageGroup), 'no pediatric finding left');
      assert.deepEqual(result.notAssessed!.slice(0, 2), [
        {
          label: 'pneumonia_bacterial',
          display: 'Bacterial pneumonia (pediatric hint)',
          reason: PEDIATRIC_ONLY_REASON,
        },
        { label: 'pneumonia_viral', display: 'Viral pneumonia (pediatric hint)', reason: PEDIATRIC_ONLY_REASON },
      ]);
      // the model's other not-assessed findings stay, with the model's reason
      assert.deepEqual(result.notAssessed!.slice(2), sampleResultV2().notAssessed);
      // the most probable remaining positive that is not the summary score
      assert.equal(result.topFinding, 'cardiomegaly');
      assert.deepEqual(result.heatmaps, []);
    }
  });

  test('a child: reported as the model gave them', () => {
    const r = withHints();
    assert.deepEqual(withholdByAge(r, 9), { result: r, withheld: [] });
    assert.deepEqual(withholdByAge(r, 17).withheld, []);
  });

  test("the 61-year-old's report: no probability for the hints, one not-assessed sentence per reason", () => {
    const { result } = withholdByAge(withHints(), 61);
    const { content, disease } = composeReport(result, adult);
    assert.doesNotMatch(content, /\| Bacterial pneumonia/);
    assert.doesNotMatch(content, /69\.1/);
    assert.ok(
      content.includes(
        'Not assessed: Bacterial pneumonia (pediatric hint), Viral pneumonia (pediatric hint) (validated only in children). ' +
          'Not assessed: Hernia, Fibrosis, Atelectasis (this model version cannot back these findings on held-out data).',
      ),
      content,
    );
    assert.equal(disease, 'Cardiomegaly');
    assert.equal(
      notAssessedLine([{ label: 'x', display: 'X', reason: PEDIATRIC_ONLY_REASON }]),
      'Not assessed: X (validated only in children).',
    );
  });

  test('FHIR: the withheld hint is a not-performed Observation with its reason and no value', () => {
    const { result } = withholdByAge(withHints(), 61);
    const obs = resources(exportOf(result, 61)).filter((x) => x.resourceType === 'Observation');
    const hint = obs.find((o) => o.code.coding[0].code === 'pneumonia_bacterial');
    assert.ok(hint);
    assert.equal(hint.valueQuantity, undefined);
    assert.equal(hint.dataAbsentReason.coding[0].code, 'not-performed');
    assert.equal(hint.dataAbsentReason.text, 'Not assessed: validated only in children');
  });

  test('chat: asked about a withheld hint, the answer gives the reason and no figure', () => {
    const { result } = withholdByAge(withHints(), 61);
    const text = notAssessed(
      { result, patient: adult, history: [], query: 'bacterial?' },
      'Bacterial pneumonia (pediatric hint)',
      'pneumonia_bacterial',
    );
    assert.match(text, /validated only in children/);
    assert.doesNotMatch(text, /69\.1|could not back it on held-out data/);
  });
});

describe('a CTR whose outlines are implausible', () => {
  test('the report, the chat and FHIR say "not measurable" with the reason, never the measured figure', () => {
    const r = flagged();
    assert.deepEqual(heartSizeLines(r.anatomy, 61), [
      'Cardiothoracic ratio: not measurable: the heart outline reaches up to the thoracic inlet.',
      'Judge the cardiac silhouette on the film itself.',
    ]);
    const { content } = composeReport(r, adult);
    assert.ok(
      content.includes('- Cardiothoracic ratio: not measurable: the heart outline reaches up to the thoracic inlet.'),
    );
    assert.doesNotMatch(content, /0\.93|0\.92/);
    const chat = heartSizeText({ result: r, patient: adult, history: [], query: 'ctr?' });
    assert.match(chat, /not measurable on this film: the heart outline reaches up to the thoracic inlet/);
    assert.doesNotMatch(chat, /0\.9/);
    const ctr = resources(exportOf(r, 61)).find((x) => x.code?.coding[0].code === CTR_CODE);
    assert.equal(ctr?.valueQuantity, undefined);
    assert.equal(ctr?.dataAbsentReason.text, 'Not measurable: the heart outline reaches up to the thoracic inlet');
  });
});

type TRes = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const resources = (r: ReturnType<typeof exportOf>): TRes[] =>
  (buildFhirBundle(r).entry as { resource: TRes }[]).map((e) => e.resource);

function exportOf(result: TStoredResult, age: number) {
  const now = new Date().toISOString();
  return ZExportReport.parse({
    schema: EXPORT_SCHEMA_ID,
    generatedAt: now,
    chat: { id: crypto.randomUUID(), title: 'X-Ray Analysis', createdAt: now },
    analysis: { id: crypto.randomUUID(), status: 'completed', createdAt: now, completedAt: now },
    patient: { name: 'Test Patient', age, medicalHistory: [] },
    model: { name: result.modelName, version: result.modelVersion, cardUrl: 'http://localhost:3000/model-card' },
    gate: { accepted: true, reason: null, flags: [] },
    findings: result.findings.map(({ ageGroup: _, ...f }) => f),
    notAssessed: result.notAssessed,
    anatomy: result.anatomy,
    projection: result.projection ?? null,
    withdrawn: result.withdrawn ?? [],
    topFinding: null,
    report: { format: 'markdown', text: 'See the findings.' },
    heatmap: null,
    disclaimer: EXPORT_DISCLAIMER,
  });
}

describe('the finalizer decides by the chat patient age', () => {
  const s = useAppWithUser({ backend: 'pglite' });

  const finalize = async (patient: object) => {
    const a = await queuedAnalysis(s.t.deps, s.u.user.id, patient);
    const heatmap = {
      storageKey: 'overlay-of-the-hint',
      sha256: 'a'.repeat(64),
      bytes: 10,
      width: 256,
      height: 256,
      mediaType: 'image/png' as const,
    };
    assert.equal(
      await finalizeAnalysis({
        ...s.t.deps,
        job: { analysisId: a.analysisId, result: workerResultOf(withHints()), heatmap },
      }),
      'completed',
    );
    const [row] = await s.t.deps.db.select().from(analyses).where(eq(analyses.id, a.analysisId));
    const [report] = await s.t.deps.db.select().from(messages).where(eq(messages.analysisId, a.analysisId));
    const view = await sessionCaller(s.t.deps, s.u).analysis.get({ analysisId: a.analysisId });
    return { row: row!, report: report!, view };
  };

  test('an adult: the stored result, the view and the report hold no pediatric probability; no overlay of it', async () => {
    const { row, report, view } = await finalize({ full_name: 'A', age: 61, medical_history: 'None' });
    const stored = row.result as TStoredResult;
    assert.ok(!stored.findings.some((f) => f.label.startsWith('pneumonia_')));
    assert.equal(stored.topFinding, 'cardiomegaly');
    assert.equal(row.heatmapImageId, null);
    assert.equal(view.heatmapUrl, null);
    assert.deepEqual(view.result?.notAssessed?.[0], {
      label: 'pneumonia_bacterial',
      display: 'Bacterial pneumonia (pediatric hint)',
      reason: PEDIATRIC_ONLY_REASON,
    });
    assert.equal(report.disease, 'Cardiomegaly');
    assert.doesNotMatch(report.content, /69\.1/);
  });

  test('a child: the hints are reported, with the overlay', async () => {
    const { row, report } = await finalize({ full_name: 'B', age: 4, medical_history: 'None' });
    const stored = row.result as TStoredResult;
    assert.equal(stored.findings.find((f) => f.label === 'pneumonia_bacterial')?.probability, 0.691);
    assert.notEqual(row.heatmapImageId, null);
    assert.match(report.content, /\| Bacterial pneumonia \(pediatric hint\) \| 69\.1% \|/);
  });
});
