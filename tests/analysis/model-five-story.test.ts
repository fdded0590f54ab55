import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, test } from 'vitest';
import { findingValueText, worklistLeadText } from '@contracts/finding-story.js';
import { projectionText } from '@contracts/finding-text.js';
import { heartStory } from '@contracts/heart-story.js';
import type { TExportReport } from '@contracts/schemas/export.js';
import type { TFinding, TProjection, TStoredResult } from '@contracts/schemas/analysis.js';
import { composeReport } from '../../server/src/services/analysis/compose-report.js';
import { wordWorkerResult } from '../../server/src/services/analysis/word-worker-result.js';
import { groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import { buildResultObjects } from '../../server/src/services/dicom-node/build-result-objects.js';
import { urgencyOf } from '../../server/src/services/dicom-node/list-worklist.js';
import { buildFhirBundle } from '../../server/src/services/export/build-fhir.js';
import { exportOfResult } from '../helpers/export-of-result.js';
import { renderPdf } from '../../server/src/services/export/render-pdf.js';
import { sampleResultV2, workerResultOf } from './support/fixtures.js';

// Issue 42 item 4: one story from one source. Model 5's result shapes (operating points chosen
// against every other film, no uncertain band) read the same on the panel, in the report and its
// impression, the chat, the PDF, FHIR, the DICOM SR and the worklist.

const f = (label: string, display: string, probability: number, threshold: number, call: TFinding['call']) => ({
  label,
  display,
  probability,
  threshold,
  call,
});
const PA: TProjection = { call: 'PA', probabilityAP: 0.12, source: 'model' };

function resultOf(findings: TFinding[], over: Partial<TStoredResult> = {}, ctr = 0.6): TStoredResult {
  const base = sampleResultV2({ modelVersion: 'test-5.0.0', findings, topFinding: null, projection: PA, ...over });
  base.anatomy = { ...base.anatomy!, ctr };
  return wordWorkerResult(workerResultOf(base));
}

/** Three flagged findings (one likely, two possible), a possible cardiomegaly on a CTR of 0.60, the triage score up. */
const FLAGGED = resultOf([
  f('abnormal', 'Abnormal (triage)', 0.93, 0.3, 'positive'),
  f('pleural_effusion', 'Pleural effusion', 0.62, 0.3, 'positive'),
  f('consolidation', 'Consolidation', 0.36, 0.2, 'possible'),
  f('infiltration', 'Infiltration', 0.18, 0.15, 'possible'),
  f('cardiomegaly', 'Enlarged cardiac silhouette', 0.38, 0.3, 'possible'),
  f('mass', 'Mass', 0.04, 0.15, 'negative'),
]);
/** Nothing flagged, the triage score above its point, a CTR of 0.52 above the reference, cardiomegaly not flagged. */
const TRIAGE_ONLY = resultOf(
  [
    f('abnormal', 'Abnormal (triage)', 0.89, 0.3, 'positive'),
    f('cardiomegaly', 'Enlarged cardiac silhouette', 0.09, 0.3, 'negative'),
    f('pleural_effusion', 'Pleural effusion', 0.1, 0.3, 'negative'),
  ],
  {},
  0.52,
);
/** A normal film: nothing flagged, triage below its point. */
const NORMAL = resultOf(
  [
    f('abnormal', 'Abnormal (triage)', 0.12, 0.3, 'negative'),
    f('cardiomegaly', 'Enlarged cardiac silhouette', 0.05, 0.3, 'negative'),
  ],
  {},
  0.44,
);

const patient = { full_name: 'Test Patient', age: '61', medical_history: 'None' };
const ask = (query: string, result: TStoredResult, age = '61') =>
  groundedAnswer({ result, query, history: [], patient: { ...patient, age } });
const plain = (s: string) => s.replace(/\*\*/g, '').replace(/\s+/g, ' ');
const impressionOf = (r: TStoredResult) =>
  /### Impression\n\n([^\n]*)/.exec(composeReport(r, patient).content)?.[1] ?? '';

const exportOf = (result: TStoredResult): TExportReport =>
  exportOfResult(result, { topFinding: null, reportText: composeReport(result, patient).content });

async function srTexts(result: TStoredResult): Promise<string[]> {
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
  const { report } = await buildResultObjects({ source, image, result });
  type TItem = { TextValue?: string; ContentSequence?: TItem[] };
  const out: string[] = [];
  const walk = (items: TItem[] | undefined) =>
    items?.forEach((i) => {
      if (i.TextValue) out.push(i.TextValue);
      walk(i.ContentSequence);
    });
  walk(report.ContentSequence as TItem[]);
  return out;
}

const fhirConclusion = (r: TStoredResult): string =>
  (buildFhirBundle(exportOf(r)).entry as { resource: { resourceType: string; conclusion?: string } }[]).find(
    (e) => e.resource.resourceType === 'DiagnosticReport',
  )!.resource.conclusion!;

const dir = mkdtempSync(join(tmpdir(), 'cxr-model5-'));
const HAS_PDFTOTEXT = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** The PDF's text (poppler's pdftotext; the report text itself where it is not installed). */
async function pdfText(r: TStoredResult): Promise<string> {
  if (!HAS_PDFTOTEXT) return plain(exportOf(r).report.text);
  const path = join(dir, `${crypto.randomUUID()}.pdf`);
  writeFileSync(path, await renderPdf(exportOf(r)));
  return plain(execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }));
}

describe('the impression names every flagged finding, most probable first, on every surface', () => {
  // Issue 48: the likely findings named as such, the possible ones only as low-confidence flags.
  const names =
    /Likely \(most probable first\): Pleural effusion 62\.0%\. Low-confidence flags for review: Enlarged cardiac silhouette 38\.0%, Consolidation 36\.0% and Infiltration 18\.0%/;

  test('report impression, chat summary, FHIR conclusion and the SR say the same list', async () => {
    assert.match(plain(impressionOf(FLAGGED)), names);
    assert.doesNotMatch(impressionOf(FLAGGED), /Mass/, 'a finding below its point is not named');
    assert.match(plain(ask('summarise the result', FLAGGED)), names);
    assert.match(plain(fhirConclusion(FLAGGED)), names);
    assert.ok((await srTexts(FLAGGED)).some((t) => names.test(t)));
  });

  test.skipIf(!HAS_PDFTOTEXT)('the PDF lists every flagged finding, most probable first', async () => {
    const text = await pdfText(FLAGGED);
    assert.match(
      text,
      /Pleural effusion 62\.0% \(Likely\); Enlarged cardiac silhouette 38\.0% \(Possible — flagged for review\); Consolidation 36\.0% \(Possible — flagged for review\); Infiltration 18\.0% \(Possible — flagged for review\)/,
    );
  });

  test('"No finding flagged" only when none is; the triage score is said when it is up', () => {
    assert.match(impressionOf(TRIAGE_ONLY), /^No finding flagged\. The triage score \(Abnormal \(triage\) 89\.0%\)/);
    assert.match(impressionOf(NORMAL), /^No finding flagged\. The conditions the model assesses/);
    assert.doesNotMatch(impressionOf(FLAGGED), /No finding flagged/);
  });

  test('below its operating point a finding is "not flagged", never "Unlikely"', () => {
    const mass = FLAGGED.findings.find((x) => x.label === 'mass')!;
    assert.equal(findingValueText(mass), '4% not flagged');
    assert.ok(composeReport(FLAGGED, patient).content.includes('| Mass | 4.0% | 15.0% | Not flagged |'));
    assert.doesNotMatch(composeReport(FLAGGED, patient).content, /Unlikely|\| negative \|/);
  });
});

describe('the heart box and the cardiomegaly call never disagree', () => {
  test('a possible cardiomegaly is "possibly enlarged" everywhere, never "Enlarged cardiac silhouette"', async () => {
    const box = heartStory(FLAGGED.anatomy, FLAGGED.projection, FLAGGED.findings)!;
    assert.match(box.headline!, /^Cardiac silhouette possibly enlarged — flagged for review, 38\.0%/);
    const surfaces = [
      box.headline!,
      composeReport(FLAGGED, patient).content,
      ask('is the heart enlarged?', FLAGGED),
      fhirConclusion(FLAGGED),
      (await srTexts(FLAGGED)).join(' | '),
      await pdfText(FLAGGED),
    ];
    for (const s of surfaces) {
      assert.ok(plain(s).includes('Cardiac silhouette possibly enlarged — flagged for review, 38.0%'), s);
      assert.doesNotMatch(s, /Enlarged cardiac silhouette — CTR/);
    }
  });

  test('a CTR above its reference on a film whose cardiomegaly is not flagged says why, everywhere', async () => {
    const why =
      /The ratio is above the usual reference, but the enlarged-heart finding, which weighs the ratio with the projection, is not flagged \(9\.0%, below its operating point 30\.0%\)/;
    assert.match(heartStory(TRIAGE_ONLY.anatomy, TRIAGE_ONLY.projection, TRIAGE_ONLY.findings)!.reconcile!, why);
    assert.match(plain(composeReport(TRIAGE_ONLY, patient).content), why);
    assert.match(plain(ask('how big is the heart?', TRIAGE_ONLY)), why);
    assert.match(plain(fhirConclusion(TRIAGE_ONLY)), why);
    assert.ok((await srTexts(TRIAGE_ONLY)).some((t) => why.test(t)));
    assert.match(await pdfText(TRIAGE_ONLY), why);
  });
});

describe('the worklist reads the same story and ranks by it (issue 42 item 5)', () => {
  test('Urgent only for a likely finding the site marked urgent; triage alone is Review; a normal film Routine', () => {
    assert.equal(urgencyOf(FLAGGED, 'analysed').urgency, 'review', 'flagged, none marked urgent');
    assert.equal(urgencyOf(FLAGGED, 'analysed', new Set(['pleural_effusion'])).urgency, 'urgent');
    // Issue 48: a "Possible" flag makes a study Urgent only when the site also counts those.
    assert.equal(urgencyOf(FLAGGED, 'analysed', new Set(['consolidation'])).urgency, 'review');
    assert.equal(urgencyOf(FLAGGED, 'analysed', new Set(['consolidation']), true).urgency, 'urgent');
    assert.equal(urgencyOf(FLAGGED, 'analysed', new Set(['mass'])).urgency, 'review', 'not flagged raises nothing');
    assert.equal(urgencyOf(TRIAGE_ONLY, 'analysed', new Set(['pleural_effusion'])).urgency, 'review');
    assert.equal(urgencyOf(NORMAL, 'analysed', new Set(['pleural_effusion'])).urgency, 'routine');
    // A positive call alone no longer makes a study urgent.
    assert.equal(urgencyOf(TRIAGE_ONLY, 'analysed', new Set(['abnormal_other'])).urgency, 'review');
  });

  test('the lead cell: the most probable flagged finding; "No finding flagged" when none is', () => {
    assert.equal(worklistLeadText(urgencyOf(FLAGGED, 'analysed').lead), 'Pleural effusion 62%');
    assert.equal(worklistLeadText(urgencyOf(NORMAL, 'analysed').lead), 'No finding flagged');
  });
});

describe('projection disagreement (issue 42 item 7)', () => {
  const tagged: TProjection = { call: 'PA', probabilityAP: 0.91, source: 'dicom' };
  const film = resultOf(
    [
      f('abnormal', 'Abnormal (triage)', 0.5, 0.3, 'positive'),
      f('cardiomegaly', 'Enlarged cardiac silhouette', 0.7, 0.3, 'positive'),
    ],
    { projection: tagged },
    0.58,
  );

  test('said in words in the report, judged against the AP reference, and true in the JSON export', () => {
    const report = composeReport(film, patient).content;
    assert.ok(
      report.includes(
        "Projection: PA (from the image's DICOM ViewPosition), but the model reads it as AP (probability of AP 91%): the two disagree, so the heart is judged as on an AP film.",
      ),
      report,
    );
    assert.match(
      report,
      /Enlarged cardiac silhouette — CTR 0\.58 on a film tagged PA but read as AP by the model \(reference 0\.50 on PA films; the heart is magnified/,
    );
    assert.equal(exportOf({ ...film, projection: { ...tagged, disagrees: true } }).projection?.disagrees, true);
  });

  test('no disagreement below 0.8, or when the model decided', () => {
    assert.doesNotMatch(projectionText({ ...tagged, probabilityAP: 0.7 }), /disagree/);
    assert.doesNotMatch(projectionText({ call: 'AP', probabilityAP: 0.91, source: 'model' }), /disagree/);
    assert.match(projectionText({ call: 'AP', probabilityAP: 0.1, source: 'dicom' }), /reads it as PA/);
  });
});

describe('the chat answers "is there pneumonia?" for an adult from airspace opacity (issue 42 item 3)', () => {
  const opacity = f(
    'lung_opacity',
    'Airspace opacity (as in pneumonia; the model cannot tell the cause)',
    0.41,
    0.25,
    'possible',
  );
  const adult = resultOf(
    [f('abnormal', 'Abnormal (triage)', 0.8, 0.3, 'positive'), { ...opacity, ageGroup: 'adult' }],
    {
      notAssessed: [{ label: 'pneumonia', display: 'Pneumonia / lung opacity', reason: 'validated only in children' }],
    },
  );

  test('an adult gets the airspace-opacity figure and call, and that the model cannot tell the cause', () => {
    for (const q of ['is there pneumonia?', 'Any sign of pneumonia', 'could this be a chest infection?']) {
      const answer = plain(ask(q, adult));
      assert.match(
        answer,
        /Airspace opacity \(as in pneumonia; the model cannot tell the cause\) 41\.0% — possible, flagged for review/,
        `${q}: ${answer}`,
      );
      assert.match(answer, /cannot tell the cause/);
      assert.doesNotMatch(answer, /does not assess pneumonia/);
    }
  });

  test('a child is answered from the pediatric finding, as before', () => {
    const child = resultOf([
      f('abnormal', 'Abnormal (triage)', 0.8, 0.3, 'positive'),
      { ...f('pneumonia', 'Pneumonia / lung opacity', 0.7, 0.5, 'positive'), ageGroup: 'pediatric' },
    ]);
    assert.match(plain(ask('is there pneumonia?', child, '4')), /Pneumonia \/ lung opacity 70\.0% — likely/);
  });

  test('the chat speaks of a heatmap overlay only when one exists', () => {
    const none = plain(ask('what does the heatmap show?', { ...FLAGGED, heatmaps: [] }));
    assert.match(none, /No heatmap overlay was stored for this film/);
    assert.doesNotMatch(none, /The viewer has a heatmap overlay/);
    const one = plain(
      ask('what does the heatmap show?', {
        ...FLAGGED,
        heatmaps: [{ label: 'pleural_effusion', width: 128, height: 128 }],
      }),
    );
    assert.match(one, /The viewer has a heatmap overlay for Pleural effusion/);
  });
});
