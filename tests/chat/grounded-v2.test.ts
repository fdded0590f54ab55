import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { CONDITION_NOTES } from '../../server/src/knowledge/cxr-conditions.js';
import { metricsForResult, parseModelMetrics, type TModelMetrics } from '../../server/src/knowledge/model-metrics.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { classifyQuestion, groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import { systemPrompt } from '../../server/src/services/chat/responders/openai-responder.js';
import type { TResponderContext } from '../../server/src/services/chat/responders/responder.js';
import { MODEL_DIR, modelInstalled, sampleResult, sampleResultV2 } from '../analysis/support/fixtures.js';

/** Model 2's candidate findings (issue 12): each needs a note whether or not it ships. */
const CANDIDATES = [
  'abnormal',
  'pneumonia',
  'covid19',
  'pneumonia_bacterial',
  'pneumonia_viral',
  'atelectasis',
  'cardiomegaly',
  'pleural_effusion',
  'infiltration',
  'mass',
  'nodule',
  'pneumothorax',
  'consolidation',
  'edema',
  'emphysema',
  'fibrosis',
  'pleural_thickening',
  'hernia',
];

const ctxOf = (
  query: string,
  result: TStoredResult = sampleResultV2(),
  age = '61',
  metrics: TModelMetrics | null = null,
): TResponderContext => ({
  result,
  query,
  history: [],
  patient: { full_name: 'Ada', age, medical_history: 'None' },
  metrics,
});

/** Every percentage quoted must be one of the stored result's figures or the model card's. */
function assertFiguresGrounded(answer: string, result: TStoredResult, metrics: TModelMetrics | null = null): void {
  const allowed = new Set(result.findings.flatMap((f) => [pct(f.probability), pct(f.threshold)]));
  for (const m of Object.values(metrics?.findings ?? {}))
    for (const v of [m.sensitivity, m.specificity]) if (v !== null) allowed.add(pct(v));
  for (const q of answer.match(/\d+\.\d%/g) ?? []) assert.ok(allowed.has(q), `quoted ${q} is not grounded`);
}

describe('condition notes', () => {
  test('every candidate label has a complete note, with no figure of its own', () => {
    for (const label of CANDIDATES) {
      const n = CONDITION_NOTES[label];
      assert.ok(n, label);
      assert.equal(n.label, label);
      for (const field of [n.what, n.callMeaning, n.forPatient]) assert.ok(field.length > 20, `${label}: short text`);
      for (const list of [n.signs, n.limits, n.differential, n.nextSteps, n.aliases])
        assert.ok(list.length > 0, `${label}: empty list`);
      const text = JSON.stringify(n);
      assert.doesNotMatch(text, /%|\bauc\b|sensitivity|specificity/i, `${label}: a note must not carry model figures`);
    }
  });

  test.skipIf(!modelInstalled() && 'no model installed')(
    'every finding the shipped model reports has a note (read from its manifest)',
    () => {
      const manifest = JSON.parse(readFileSync(`${MODEL_DIR}/manifest.json`, 'utf8')) as {
        findings?: { label: string }[];
        notAssessed?: { label: string }[];
      };
      for (const f of [...(manifest.findings ?? []), ...(manifest.notAssessed ?? [])])
        assert.ok(CONDITION_NOTES[f.label], f.label);
    },
  );
});

describe('grounded chat with a model-2 result', () => {
  test('a finding the result lists as not assessed: this model version does not assess it, whatever the question', () => {
    const r = sampleResultV2();
    for (const q of [
      'Is there atelectasis?',
      'How confident is the model about the hernia?',
      'What is the differential for fibrosis?',
    ]) {
      const intent = classifyQuestion(q, r);
      assert.equal(intent.kind, 'not-assessed', q);
      const answer = groundedAnswer(ctxOf(q, r));
      assert.match(
        answer,
        /This model version does not assess (Atelectasis|Hernia|Fibrosis)\. It was a candidate finding, but this model version could not back it on held-out data/,
      );
      assert.ok(answer.includes(DISCLAIMER));
      assertFiguresGrounded(answer, r);
    }
  });

  test('a candidate finding the result neither reports nor lists (an older model) is not assessed either', () => {
    const answer = groundedAnswer(ctxOf('Could there be a pneumothorax?', sampleResult()));
    assert.match(
      answer,
      /does not assess Pneumothorax\. It reports only COVID-19, Pneumonia, Bacterial pneumonia and Viral pneumonia/,
    );
  });

  test('a shipped finding named together with an unassessed one is answered for the shipped one', () => {
    assert.deepEqual(classifyQuestion('Is it pneumonia or atelectasis?', sampleResultV2()), {
      kind: 'finding',
      label: 'pneumonia',
    });
    // Without the result the classifier knows nothing about what ships.
    assert.equal(classifyQuestion('Is there atelectasis?').kind, 'finding');
  });

  test('explaining a shipped finding: what it is, signs, what the call means, limits, its stored figure', () => {
    const answer = groundedAnswer(ctxOf('Explain the pleural effusion finding'));
    assert.ok(answer.includes(pct(0.4977)));
    for (const h of ['What it is:', 'Typical radiographic signs', "What the model's call means:", 'Limits:'])
      assert.ok(answer.includes(h), h);
    assertFiguresGrounded(answer, sampleResultV2());
  });

  test('heart size questions answer from the stored CTR, with the reference, the caveats and the cardiomegaly output', () => {
    for (const q of [
      'What is the CTR?',
      'Is the heart enlarged?',
      'What is the cardiothoracic ratio?',
      'How big is the cardiac silhouette?',
    ]) {
      assert.equal(classifyQuestion(q, sampleResultV2()).kind, 'heart-size', q);
    }
    const answer = groundedAnswer(ctxOf('Is the heart enlarged?'));
    assert.match(
      answer,
      /cardiothoracic ratio of 0\.56\*\*, above the usual upper reference of 0\.50 on an adult PA film/,
    );
    assert.match(answer, /less reliable on AP films/);
    assert.ok(answer.includes(`Cardiomegaly ${pct(0.7408)} — likely`));
    assertFiguresGrounded(answer, sampleResultV2());
    const pediatric = groundedAnswer(ctxOf('What is the CTR?', sampleResultV2(), '7'));
    assert.match(pediatric, /Patient age 7: this is a pediatric film/);
  });

  test('heart size: when not measured it says why; a model without an anatomy stage says it does not measure it', () => {
    const noHeart = sampleResultV2({ anatomy: { ...sampleResultV2().anatomy!, ctr: null, flags: ['no_heart'] } });
    assert.match(
      groundedAnswer(ctxOf('What is the CTR?', noHeart)),
      /No cardiothoracic ratio was measured for this film: the heart outline could not be found reliably/,
    );
    const v1 = groundedAnswer(ctxOf('What is the CTR?', sampleResult()));
    assert.match(v1, /does not measure heart size: it has no anatomy stage/);
    assert.match(v1, /Cardiomegaly is not among the findings this model version reports/);
  });

  test('cardiomegaly not assessed but a CTR measured: the answer says so and still gives the ratio', () => {
    const r = sampleResultV2({
      findings: sampleResultV2().findings.filter((f) => f.label !== 'cardiomegaly'),
      notAssessed: [{ label: 'cardiomegaly', display: 'Cardiomegaly' }],
      topFinding: null,
    });
    const answer = groundedAnswer(ctxOf('Is there cardiomegaly?', r));
    assert.match(answer, /does not assess Cardiomegaly/);
    assert.match(answer, /cardiothoracic ratio of 0\.56/);
    assert.match(answer, /The ratio above is a measurement, not a call/);
  });

  test('"is it normal" and the summary name the reported and the not-assessed findings from the result', () => {
    const r = sampleResultV2({
      findings: sampleResultV2().findings.map((f) => ({ ...f, call: 'negative' as const })),
      topFinding: null,
    });
    const answer = groundedAnswer(ctxOf('Is it normal?', r));
    assert.match(
      answer,
      /No finding flagged among those the model assesses \(Pneumonia \/ lung opacity, COVID-19 pattern, Cardiomegaly and Pleural effusion\)/,
    );
    assert.match(answer, /Not assessed: Hernia, Fibrosis, Atelectasis/);
    assert.match(groundedAnswer(ctxOf('hello', r)), /heart size \(the cardiothoracic ratio\)/);
  });

  test('lung cancer is not assessed; a related shipped output is quoted as an appearance', () => {
    const r = sampleResultV2({
      findings: [
        ...sampleResultV2().findings,
        { label: 'nodule', display: 'Nodule', probability: 0.0712, threshold: 0.3, call: 'negative' },
      ],
    });
    const answer = groundedAnswer(ctxOf('Could it be lung cancer?', r));
    assert.match(answer, /does not assess lung cancer/);
    assert.ok(answer.includes(`Nodule ${pct(0.0712)} — not flagged`));
    assertFiguresGrounded(answer, r);
  });

  test('the LLM system prompt carries the not-assessed list and the CTR, not a fixed list of conditions', () => {
    const prompt = systemPrompt(ctxOf('x'));
    assert.match(
      prompt,
      /only assesses the findings listed below \(Pneumonia \/ lung opacity, COVID-19 pattern, Cardiomegaly, Pleural effusion\)/,
    );
    assert.match(prompt, /Not assessed: Hernia, Fibrosis, Atelectasis/);
    assert.match(prompt, /Heart size: Cardiothoracic ratio 0\.56/);
    assert.doesNotMatch(systemPrompt(ctxOf('x', sampleResult())), /Heart size|Not assessed/);
  });
});

describe('model card figures in the chat', () => {
  const metrics = parseModelMetrics({
    modelName: 'cxr-lungcrop-test',
    modelVersion: 'test-2.0.0',
    testImages: 421,
    findings: {
      cardiomegaly: {
        n: 421,
        positives: 10,
        auc: 0.8123,
        aucCi95: [0.7011, 0.9002],
        sensitivity: 0.8,
        specificity: 0.7345,
      },
    },
  });

  test("an explained finding quotes the card's figures for it, and only those", () => {
    const answer = groundedAnswer(ctxOf('Explain the cardiomegaly finding', sampleResultV2(), '61', metrics));
    assert.match(
      answer,
      /ROC AUC 0\.812 \(95% CI 0\.701-0\.900\); at its threshold, sensitivity 80\.0% and specificity 73\.5%; 421 images, 10 positive \(held-out test split\)/,
    );
    assert.match(answer, /\*\*Heart size:\*\* The anatomy stage measured a \*\*cardiothoracic ratio of 0\.56/);
    assertFiguresGrounded(answer, sampleResultV2(), metrics);
    const other = groundedAnswer(ctxOf('Explain the pleural effusion finding', sampleResultV2(), '61', metrics));
    assert.doesNotMatch(other, /ROC AUC/);
  });

  test("model 2's card: a not-assessed finding gets its measured figure and the shipping rule", () => {
    const card = parseModelMetrics({
      modelName: 'cxr-lungcrop-test',
      modelVersion: 'test-2.0.0',
      shipRule: 'lower end of the 95 % bootstrap AUROC interval >= 0.7',
      findings: {
        hernia: {
          population: 'hernia (ChestX-ray14)',
          figureFrom: '5-fold patient-disjoint cross-validation',
          auc: 0.6512,
          aucCi95: [0.4101, 0.8799],
          n: 1486,
          positives: 11,
          shipped: false,
        },
      },
    });
    const answer = groundedAnswer(ctxOf('Is there a hernia?', sampleResultV2(), '61', card));
    assert.match(answer, /does not assess Hernia/);
    assert.match(
      answer,
      /ROC AUC 0\.651 \(95% CI 0\.410-0\.880\); 1,486 images, 11 positive \(hernia \(ChestX-ray14\), 5-fold patient-disjoint cross-validation\), which does not meet the shipping rule: lower end of the 95 % bootstrap AUROC interval >= 0\.7/,
    );
    assertFiguresGrounded(answer, sampleResultV2(), card);
  });

  test.skipIf(!modelInstalled() && 'no model installed')(
    'metrics.json is used only for the model version that produced the result',
    () => {
      const card = JSON.parse(readFileSync(`${MODEL_DIR}/metrics.json`, 'utf8')) as {
        modelVersion: string;
        findings: Record<string, { auc: number }>;
      };
      assert.equal(metricsForResult(MODEL_DIR, { modelVersion: `${card.modelVersion}-other` }), null);
      const same = metricsForResult(MODEL_DIR, { modelVersion: card.modelVersion });
      assert.ok(same);
      for (const [label, f] of Object.entries(card.findings)) assert.equal(same.findings[label]?.auc, f.auc, label);
    },
  );
});
