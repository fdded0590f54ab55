import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { parseModelMetrics } from '../../server/src/knowledge/model-metrics.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import {
  createIntentClassifier,
  intentClassifier,
  ZIntentModel,
  INTENT_MODEL_URL,
} from '../../server/src/services/chat/intents/classify-intent.js';
import { INTENT_KINDS } from '../../server/src/services/chat/intents/intent-kinds.js';
import { groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import type { TResponderContext } from '../../server/src/services/chat/responders/responder.js';
import {
  classifyQuestion,
  splitQuestions,
  understandQuestion,
} from '../../server/src/services/chat/responders/understand-question.js';
import { sampleResult, sampleResultV2 } from '../analysis/support/fixtures.js';

const QUESTIONS = JSON.parse(
  readFileSync(new URL('../../server/src/services/chat/intents/intent-questions.json', import.meta.url), 'utf8'),
) as { questions: { text: string; intent: string; split: 'train' | 'test' }[] };

/** Model 2 with zones: pneumonia's evidence mostly in the patient's right lower zone. */
const ZONED: TStoredResult = sampleResultV2({
  findings: [
    ...sampleResultV2().findings.filter((f) => f.label !== 'pneumonia'),
    { label: 'pneumonia', display: 'Pneumonia / lung opacity', probability: 0.8883, threshold: 0.45, call: 'positive' },
  ],
  topFinding: 'pneumonia',
  heatmaps: [{ label: 'pneumonia', width: 128, height: 128 }],
  heatmapZones: [
    {
      label: 'pneumonia',
      zones: {
        right_upper: 0.05,
        right_middle: 0.2,
        right_lower: 0.55,
        left_upper: 0.04,
        left_middle: 0.06,
        left_lower: 0.1,
      },
    },
  ],
});

const ctxOf = (
  query: string,
  result: TStoredResult = ZONED,
  history: TResponderContext['history'] = [],
  metrics: TResponderContext['metrics'] = null,
): TResponderContext => ({
  result,
  query,
  history,
  patient: { full_name: 'Ada', age: '61', medical_history: 'None' },
  metrics,
});

/** Every number in an answer must be one of the stored result's figures (as the report writes them). */
function assertGrounded(answer: string, result: TStoredResult): void {
  const allowed = new Set(result.findings.flatMap((f) => [pct(f.probability), pct(f.threshold)]));
  for (const q of answer.match(/\d+\.\d%/g) ?? []) assert.ok(allowed.has(q), `quoted ${q} is not grounded`);
}

describe('the labelled question set and the committed classifier', () => {
  test('at least 300 phrasings, every intent in both splits, with abbreviations, typos and both spellings', () => {
    const qs = QUESTIONS.questions;
    assert.ok(qs.length >= 300, String(qs.length));
    for (const kind of INTENT_KINDS)
      for (const split of ['train', 'test'])
        assert.ok(
          qs.some((q) => q.intent === kind && q.split === split),
          `${kind} ${split}`,
        );
    const text = qs.map((q) => q.text).join('\n');
    for (const w of [/\bCTR\b/, /\bPTX\b/, /\babx\b/, /\bCXR\b/i, /oedema/, /\bedema/, /hospitalised/, /hospitalized/])
      assert.match(text, w);
    assert.ok(
      qs.some((q) => /pneumonia and covid|covid or pneumonia/i.test(q.text)),
      'several findings at once',
    );
  });

  test('the committed model reaches 95 % on the held-out phrasings', () => {
    const clf = intentClassifier();
    const test = QUESTIONS.questions.filter((q) => q.split === 'test');
    const right = test.filter((q) => clf.rank(q.text)[0]!.kind === q.intent).length;
    assert.ok(right / test.length >= 0.95, `${right}/${test.length}`);
  });

  test('the model file is well-formed: one class per intent kind', () => {
    const model = ZIntentModel.parse(JSON.parse(readFileSync(INTENT_MODEL_URL, 'utf8')));
    assert.deepEqual(model.kinds, [...INTENT_KINDS]);
  });

  test('paraphrases of the questions that used to get the summary get their own intent', () => {
    const cases: [string, string][] = [
      ['How big is the heart?', 'heart-size'],
      ['Should I start antibiotics?', 'treatment'],
      ['Does this patient need admission?', 'admission'],
      ['Do I need a CT scan?', 'imaging'],
      ['Where is the opacity?', 'location'],
      ['Which lobe is affected?', 'location'],
      ['How accurate is this model?', 'accuracy'],
      ['What does the heatmap show?', 'heatmap'],
    ];
    for (const [q, kind] of cases) assert.equal(classifyQuestion(q, ZONED).kind, kind, q);
  });
});

describe('ask-back below the confidence floor', () => {
  test('a question the classifier cannot place is answered with "Do you mean … or …?"', () => {
    const intent = classifyQuestion('qwx zzv plorp', ZONED);
    assert.equal(intent.kind, 'ask-back');
    const answer = groundedAnswer(ctxOf('qwx zzv plorp'));
    assert.match(answer, /Do you mean .+ or .+\?/);
    assert.ok(answer.includes(DISCLAIMER));
  });

  test('the floor decides: the same question is answered above it and asked back under a higher one', () => {
    const model = ZIntentModel.parse(JSON.parse(readFileSync(INTENT_MODEL_URL, 'utf8')));
    const strict = createIntentClassifier({ ...model, floor: 0.999 });
    const q = 'Is the picture ok?';
    const top = intentClassifier().rank(q)[0]!;
    assert.ok(top.p < 0.999);
    const asked = classifyQuestion(q, ZONED, strict);
    assert.equal(asked.kind, 'ask-back');
    assert.ok(asked.kind === 'ask-back' && asked.options[0] === top.kind);
  });
});

describe('several questions in one message, and follow-ups', () => {
  test('splits at sentence ends and at "and" before a new question, not inside a list of findings', () => {
    assert.deepEqual(splitQuestions('Where is the opacity and how big is the heart?'), [
      'Where is the opacity',
      'how big is the heart',
    ]);
    assert.deepEqual(splitQuestions('Should I start antibiotics? Does she need admission.'), [
      'Should I start antibiotics',
      'Does she need admission',
    ]);
    assert.deepEqual(splitQuestions('Where are the pneumonia and covid changes?'), [
      'Where are the pneumonia and covid changes',
    ]);
  });

  test('a two-part message is answered part by part under each question, with one disclaimer', () => {
    const answer = groundedAnswer(ctxOf('Where is the opacity and how big is the heart?'));
    assert.match(answer, /\*\*Where is the opacity\?\*\*[\s\S]*right lower zone[\s\S]*\*\*how big is the heart\?\*\*/);
    assert.match(answer, /cardiothoracic ratio of 0\.56/);
    assert.equal(answer.split(DISCLAIMER).length, 2, 'one disclaimer');
  });

  test('"and the left side?" after a where-question answers for the patient\'s left lung', () => {
    const history = [
      { role: 'user' as const, content: 'Where is the opacity?' },
      { role: 'assistant' as const, content: '…' },
    ];
    const [part] = understandQuestion('and the left side?', history, ZONED);
    assert.equal(part?.intent.kind, 'location');
    assert.equal(part?.side, 'left');
    const answer = groundedAnswer(ctxOf('and the left side?', ZONED, history));
    assert.match(answer, /20% of the model's heatmap evidence inside the lungs lies in the patient's left lung/);
    assert.match(answer, /left lower zone\*\* \(10%\)/);
    const named = understandQuestion(
      'and the left side?',
      [{ role: 'user', content: 'Where is the pneumonia?' }],
      ZONED,
    );
    assert.deepEqual(named[0]?.labels, ['pneumonia'], 'the finding of the previous question is kept');
  });

  test('"what about covid?" keeps the previous intent for the finding it names', () => {
    const history = [{ role: 'user' as const, content: 'Explain the pneumonia finding' }];
    const [part] = understandQuestion('what about covid?', history, ZONED);
    assert.deepEqual(part?.intent, { kind: 'finding', label: 'covid19' });
  });
});

describe('the answers that used to fall back to the summary', () => {
  test("where: the zone holding most of the evidence, as the model's evidence, patient's sides", () => {
    const answer = groundedAnswer(ctxOf('Which lobe is affected?'));
    assert.match(answer, /Pneumonia \/ lung opacity\*\* \(88\.8%, likely\)/);
    assert.match(answer, /patient's right lower zone\*\* \(55%\), then the right middle zone \(20%\)/);
    assert.match(answer, /Right lung 80%, left lung 20%/);
    assert.match(answer, /not a lesion it outlined or measured/);
    assert.match(answer, /not lobes/);
    assert.match(answer, /image's left is the patient's right/);
    assertGrounded(answer, ZONED);
  });

  test('where: an older analysis, a model without anatomy, and a film with nothing called say why there is no zone', () => {
    const old = { ...ZONED };
    delete old.heatmapZones;
    assert.match(groundedAnswer(ctxOf('Where is the opacity?', old)), /stored before the lung zones/);
    assert.match(groundedAnswer(ctxOf('Where is the pneumonia?', sampleResult())), /no lung outlines/);
    const negative = sampleResultV2({
      findings: sampleResultV2().findings.map((f) => ({ ...f, call: 'negative' as const })),
      topFinding: null,
    });
    assert.match(groundedAnswer(ctxOf('Where is it?', negative)), /no evidence to place/);
  });

  test('treatment, admission and imaging: a refusal to decide, the figures, what decides it; no new numbers', () => {
    const cases: [string, RegExp][] = [
      ['Should I start antibiotics?', /I can't decide whether to start \(or stop\) a treatment/],
      ['Does this patient need admission?', /I can't decide whether this patient needs admission/],
      ['Do I need a CT scan?', /I can't decide whether further imaging is needed/],
    ];
    for (const [q, head] of cases) {
      const answer = groundedAnswer(ctxOf(q));
      assert.match(answer, head, q);
      assert.match(
        answer,
        /What the figures say:\*\* The model called or could not exclude:\n- Cardiomegaly 74\.1% — likely/,
      );
      assert.ok(answer.includes(`Pneumonia / lung opacity ${pct(0.8883)}`), q);
      assert.match(answer, /What decides it\*\* \(for you to weigh, not a recommendation\)/);
      assert.doesNotMatch(answer, /\b(recommend|should start|should admit)\b/i);
      assert.ok(answer.includes(DISCLAIMER));
      assertGrounded(answer, ZONED);
    }
    assert.match(groundedAnswer(ctxOf('Do I need a CT scan?')), /Not assessed: Hernia, Fibrosis, Atelectasis/);
  });

  test("accuracy: the model card's figures per finding with intervals and populations, never this image's", () => {
    const metrics = parseModelMetrics({
      modelName: 'cxr-lungcrop-test',
      modelVersion: 'test-2.0.0',
      testImages: 2213,
      shipRule: 'lower CI >= 0.7',
      findings: {
        pneumonia: {
          auc: 0.94,
          aucCi95: [0.912, 0.963],
          n: 353,
          positives: 238,
          population: 'adult infection vs adult normal',
        },
        cardiomegaly: { auc: 0.85, aucCi95: [0.8, 0.9], n: 500, positives: 60, population: 'ChestX-ray14' },
        hernia: { auc: 0.651, aucCi95: [0.41, 0.88], n: 1486, positives: 11 },
      },
    });
    const answer = groundedAnswer(ctxOf('How accurate is this model?', ZONED, [], metrics));
    assert.match(
      answer,
      /Pneumonia \/ lung opacity\*\*: ROC AUC 0\.940 \(95% CI 0\.912-0\.963\); 353 images, 238 positive \(adult infection vs adult normal/,
    );
    assert.match(answer, /Cardiomegaly\*\*: ROC AUC 0\.850/);
    assert.match(answer, /2,213 test images/);
    assert.match(answer, /Not reported by this version \(below its shipping rule: lower CI >= 0\.7\): Hernia/);
    assert.equal(answer.includes(pct(0.8883)), false, "not this image's probability");
    const one = groundedAnswer(ctxOf('How accurate is it for pneumonia?', ZONED, [], metrics));
    assert.doesNotMatch(one, /Cardiomegaly\*\*/);
    assert.match(groundedAnswer(ctxOf('How accurate is this model?')), /No model card figures are available/);
  });

  test('heatmap: what the overlay shows and what it does not', () => {
    const answer = groundedAnswer(ctxOf('What does the heatmap show?'));
    assert.match(answer, /heatmap overlay for \*\*Pneumonia \/ lung opacity\*\*/);
    assert.match(answer, /Most of its mass inside the lungs lies in the patient's right lower zone/);
    assert.match(answer, /What it does not show:\*\*\n- It is not an outline of a lesion/);
  });

  test('heart size: the CTR, or why it could not be measured', () => {
    assert.match(groundedAnswer(ctxOf('How big is the heart?')), /cardiothoracic ratio of 0\.56\*\*, above/);
    const noCtr = sampleResultV2({
      anatomy: { ...sampleResultV2().anatomy!, ctr: null, flags: ['no_heart'] },
    });
    assert.match(
      groundedAnswer(ctxOf('How big is the heart?', noCtr)),
      /No cardiothoracic ratio was measured for this film: the heart outline could not be found reliably/,
    );
  });

  test('the responder follows the findings the result lists, not a fixed list', () => {
    const more = sampleResultV2({
      findings: [
        ...sampleResultV2().findings,
        { label: 'pneumothorax', display: 'Pneumothorax', probability: 0.7712, threshold: 0.5, call: 'positive' },
      ],
      heatmapZones: [
        {
          label: 'pneumothorax',
          zones: { right_upper: 0, right_middle: 0, right_lower: 0, left_upper: 0.9, left_middle: 0.1, left_lower: 0 },
        },
      ],
    });
    const answer = groundedAnswer(ctxOf('Where is the PTX?', more));
    assert.match(answer, /Pneumothorax\*\* \(77\.1%[\s\S]*patient's left upper zone\*\* \(90%\)/);
  });
});
