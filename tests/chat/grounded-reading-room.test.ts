import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { parseModelMetrics } from '../../server/src/knowledge/model-metrics.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { classifyQuestion, groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import type { TResponderContext } from '../../server/src/services/chat/responders/responder.js';
import {
  DEVICES_NOT_ASSESSED,
  draftSections,
  impressionSection,
  NO_ACUTE,
  type TReportFacts,
} from '../../server/src/services/report/draft-sections.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';

const QUESTIONS = JSON.parse(
  readFileSync(new URL('../../server/src/services/chat/intents/intent-questions.json', import.meta.url), 'utf8'),
) as { questions: { text: string; intent: string }[] };

/** An adult film with a flagged effusion (right lower zone), a possible consolidation and a flagged CTR. */
const EFFUSION: TStoredResult = sampleResultV2({
  findings: [
    { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.9012, threshold: 0.762, call: 'positive' },
    { label: 'lung_opacity', display: 'Lung opacity', probability: 0.1804, threshold: 0.6217, call: 'negative' },
    { label: 'consolidation', display: 'Consolidation', probability: 0.3611, threshold: 0.2324, call: 'possible' },
    { label: 'cardiomegaly', display: 'Cardiomegaly', probability: 0.0912, threshold: 0.1398, call: 'negative' },
    { label: 'pleural_effusion', display: 'Pleural effusion', probability: 0.7166, threshold: 0.283, call: 'positive' },
  ],
  notAssessed: [
    { label: 'pneumothorax', display: 'Pneumothorax' },
    { label: 'pneumonia', display: 'Pneumonia', reason: 'withheld: pediatric-only output' },
  ],
  topFinding: 'pleural_effusion',
  heatmaps: [{ label: 'pleural_effusion', width: 128, height: 128 }],
  heatmapZones: [
    {
      label: 'pleural_effusion',
      zones: {
        right_upper: 0.02,
        right_middle: 0.08,
        right_lower: 0.66,
        left_upper: 0.02,
        left_middle: 0.04,
        left_lower: 0.18,
      },
    },
  ],
});

/** The model card's one-vs-rest figure for effusion, as metrics.json carries it. */
const METRICS = parseModelMetrics({
  modelName: 'cxr-lungcrop-test',
  modelVersion: 'test-2.0.0',
  findings: {
    pleural_effusion: {
      auc: 0.7537,
      aucCi95: [0.6792, 0.826],
      n: 263,
      positives: 46,
      sensitivity: 0.4783,
      specificity: 0.8,
      population: 'Effusion vs every other ChestX-ray14 film',
    },
  },
});

const factsOf = (result: TStoredResult): TReportFacts => ({
  result,
  age: 61,
  studyDate: '2026-11-02',
  source: 'dicom',
  comparison: null,
});

const ctxOf = (query: string, result: TStoredResult = EFFUSION): TResponderContext => ({
  result,
  query,
  history: [],
  patient: { full_name: 'Ada', age: '61', medical_history: 'None' },
  metrics: METRICS,
  reportFacts: factsOf(result),
});

/** Every one-decimal percentage is the stored result's (a probability or an operating point) or the card's. */
function assertGrounded(answer: string, result: TStoredResult): void {
  const allowed = new Set([
    ...result.findings.flatMap((f) => [pct(f.probability), pct(f.threshold)]),
    pct(0.4783),
    pct(0.8),
  ]);
  for (const q of answer.match(/\d+\.\d%/g) ?? []) assert.ok(allowed.has(q), `quoted ${q} is not grounded`);
  assert.ok(answer.includes(DISCLAIMER));
}

const NOTHING_FLAGGED = sampleResultV2({
  findings: sampleResultV2().findings.map((f) => ({ ...f, call: 'negative' as const })),
  topFinding: null,
});

describe("the reading room's questions, which used to be asked back", () => {
  test('the three questions of the walk get their own answer, not "Do you mean …?"', () => {
    for (const q of ['What is the most important finding?', 'Write the impression line', 'Any lines or tubes?']) {
      const answer = groundedAnswer(ctxOf(q));
      assert.doesNotMatch(answer, /Do you mean/, q);
    }
  });

  test("impression: the drafted report's impression word for word, numbered, and who signs it", () => {
    const answer = groundedAnswer(ctxOf('write the impression line'));
    const drafted = draftSections(factsOf(EFFUSION)).impression;
    assert.ok(answer.includes(drafted), answer);
    // Issue 48: only the likely finding, no figure; the possible consolidation stays out.
    assert.equal(drafted, '1. Right pleural effusion.', 'its map lies in the right lung');
    assert.match(answer, /edits and signs the report in the report panel/);
    assertGrounded(answer, EFFUSION);
    const clear = groundedAnswer(ctxOf("What's the impression?", NOTHING_FLAGGED));
    assert.ok(clear.includes(NO_ACUTE));
  });

  test('most important finding: the first impression item with its probability words; "No finding flagged" when none', () => {
    const answer = groundedAnswer(ctxOf('what is the most important finding?'));
    assert.match(
      answer,
      /first line of the drafted impression: \*\*Right pleural effusion\*\*; the AI's figures: Pleural effusion: 71\.7% Likely \(operating point 28\.3%\)\./,
    );
    assert.match(answer, /A flag is a screening signal for the clinician to confirm, not a diagnosis\./);
    assert.match(answer, /Low-confidence flags for review[\s\S]*Consolidation: Possible — flagged for review, 36\.1%/);
    assert.ok(impressionSection(EFFUSION).startsWith('1. Right pleural effusion'));
    assertGrounded(answer, EFFUSION);
    // Likely before possible: a possible finding with a higher probability does not lead.
    const possibleHigher = sampleResultV2({
      findings: [
        { label: 'consolidation', display: 'Consolidation', probability: 0.48, threshold: 0.2, call: 'possible' },
        { label: 'cardiomegaly', display: 'Cardiomegaly', probability: 0.46, threshold: 0.5, call: 'negative' },
        { label: 'pleural_effusion', display: 'Pleural effusion', probability: 0.52, threshold: 0.3, call: 'positive' },
      ],
    });
    assert.match(groundedAnswer(ctxOf('Main finding?', possibleHigher)), /impression: \*\*Pleural effusion/);
    const none = groundedAnswer(ctxOf('what is the most important finding?', NOTHING_FLAGGED));
    assert.match(none, /^No finding flagged\./);
  });

  test('lines, tubes and devices: not assessed, a reader checks them; never present or absent', () => {
    for (const q of [
      'any lines or tubes?',
      'Is there a pacemaker?',
      'Is the ET tube too low?',
      'Check the PICC line',
    ]) {
      assert.equal(classifyQuestion(q, EFFUSION).kind, 'devices', q);
      const answer = groundedAnswer(ctxOf(q));
      assert.match(answer, /does \*\*not assess lines, tubes, pacemakers or other devices\*\*/);
      assert.match(answer, /A reader must check every line, tube and device on the film/);
      assert.ok(answer.includes(DEVICES_NOT_ASSESSED), "the report's words");
      assert.doesNotMatch(answer, /\b(there is|there are|no) (a |an )?(pacemaker|line|tube|device)s?\b/i);
      assert.doesNotMatch(answer, /\b(is|are) (present|absent|seen|visible|in place)\b/i);
    }
    // Every film's summary says so too: a film with a pacemaker is not read for it.
    assert.ok(groundedAnswer(ctxOf('Summarise the result')).includes(DEVICES_NOT_ASSESSED));
    // "the impression line" is a line of text, not a device.
    assert.equal(classifyQuestion('write the impression line', EFFUSION).kind, 'impression');
  });

  test("why is effusion flagged: its probability against its point, where the heat lies, the card's figure", () => {
    const answer = groundedAnswer(ctxOf('why is effusion flagged'));
    assert.match(
      answer,
      /\*\*Pleural effusion is flagged\*\*: its calibrated probability, 71\.7%, is at or above its operating point 28\.3%/,
    );
    assert.match(
      answer,
      /Where the heat lies:\*\* \*\*Pleural effusion\*\* \(71\.7%, likely\): most of the model's heatmap evidence inside the lungs lies in the \*\*patient's right lower zone\*\* \(66%\)/,
    );
    assert.match(
      answer,
      /ROC AUC 0\.754 \(95% CI 0\.679-0\.826\); at its threshold, sensitivity 47\.8% and specificity 80\.0%; 263 images, 46 positive \(Effusion vs every other ChestX-ray14 film/,
    );
    assertGrounded(answer, EFFUSION);
    // Synonyms name the same finding.
    assert.match(groundedAnswer(ctxOf('Why was the pleural fluid called?')), /Pleural effusion is flagged/);
  });

  test('why: a finding below its point is "not flagged" and why; one not reported is not assessed; no card, no figure', () => {
    const heart = groundedAnswer(ctxOf('why is the enlarged heart flagged?'));
    assert.match(
      heart,
      /\*\*Cardiomegaly is not flagged\*\*: its calibrated probability, 9\.1%, is below its operating point 14\.0%/,
    );
    assert.doesNotMatch(heart, /Where the heat lies/);
    assert.match(heart, /The model card \(cxr-lungcrop-test test-2\.0\.0\) has no measured figure for Cardiomegaly/);
    // An adult's "pneumonia" is answered by the opacity finding.
    const opacity = groundedAnswer(ctxOf('why is pneumonia not flagged?'));
    assert.match(
      opacity,
      /\*\*Lung opacity is not flagged\*\*: its calibrated probability, 18\.0%, is below its operating point 62\.2%/,
    );
    assert.equal(classifyQuestion('why is the opacity flagged', EFFUSION).kind, 'why-flagged');
    assert.match(groundedAnswer(ctxOf('why is the pneumothorax flagged?')), /does not assess Pneumothorax/);
    const possible = groundedAnswer(ctxOf('why is consolidation flagged?'));
    assert.match(
      possible,
      /flagged for review\*\*: its calibrated probability, 36\.1%, is at or above its operating point 23\.2%/,
    );
    const noCard = groundedAnswer({ ...ctxOf('why is effusion flagged'), metrics: null });
    assert.match(
      noCard,
      /No model card figures are available for the model that produced this result \(cxr-lungcrop-test test-2\.0\.0\), so none is quoted/,
    );
    assert.doesNotMatch(noCard, /ROC AUC/);
  });

  test('"draft the report": the four sections as the report panel drafts them, and who signs it', () => {
    const answer = groundedAnswer(ctxOf('draft the report'));
    const s = draftSections(factsOf(EFFUSION));
    for (const [head, body] of [
      ['EXAMINATION', s.examination],
      ['COMPARISON', s.comparison],
      ['FINDINGS', s.findings],
      ['IMPRESSION', s.impression],
    ])
      assert.ok(answer.includes(`**${head}**\n${body}`), head);
    assert.ok(answer.indexOf('EXAMINATION') < answer.indexOf('COMPARISON'));
    assert.ok(answer.indexOf('FINDINGS') < answer.indexOf('IMPRESSION'));
    assert.match(answer, /radiologist edits and signs the report in the report panel/);
    assertGrounded(answer, EFFUSION);
  });

  test('comparison phrasings route to the timeline comparison', () => {
    for (const q of ['What changed since the prior study?', 'Any interval change?', 'Compare with her last film'])
      assert.match(
        groundedAnswer({ ...ctxOf(q), comparison: null }),
        /There is no earlier analysis to compare with/,
        q,
      );
  });
});

describe('held-out paraphrases of the new intents (none is in the training file)', () => {
  const HELD_OUT: [string, string][] = [
    ['Could you give me an impression I can paste into the report?', 'impression'],
    ['What would the impression read?', 'impression'],
    ["What's the most significant abnormality on this one?", 'top-finding'],
    ['What is the main problem on this chest film?', 'top-finding'],
    ['Is the endotracheal tube well positioned?', 'devices'],
    ['any foreign bodies or lines?', 'devices'],
    ['Why has the effusion been flagged?', 'why-flagged'],
    ['What made the model call cardiomegaly?', 'why-flagged'],
    ['Please write up a full radiology report for this study', 'draft-report'],
    ['Can you draft the report in the usual sections?', 'draft-report'],
    ['How does this compare with her prior film?', 'compare'],
    ['Anything different from the previous study?', 'compare'],
  ];

  test('at least 10 of 12 route to their intent', () => {
    const trained = new Set(QUESTIONS.questions.map((q) => q.text.toLowerCase()));
    for (const [q] of HELD_OUT) assert.ok(!trained.has(q.toLowerCase()), `${q} is in the training file`);
    const right = HELD_OUT.filter(([q, kind]) => classifyQuestion(q, EFFUSION).kind === kind);
    assert.ok(right.length >= 10, `${right.length}/12`);
  });
});
