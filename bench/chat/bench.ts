import { readFileSync } from 'node:fs';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { intentClassifier } from '../../server/src/services/chat/intents/classify-intent.js';
import { groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import { classifyQuestion } from '../../server/src/services/chat/responders/understand-question.js';
import { keywordIntent } from './keyword-matcher.js';

/**
 * npm run bench:chat: intent accuracy on the held-out phrasings of the committed question set,
 * for the committed classifier ("after") and the keyword matcher it replaced ("before"), the
 * most frequent confusions, and the time to classify and to answer one question (p50/p95) on
 * this CPU. JSON line last.
 */

const { questions } = JSON.parse(
  readFileSync(new URL('../../server/src/services/chat/intents/intent-questions.json', import.meta.url), 'utf8'),
) as { questions: { text: string; intent: string; split: string }[] };
const test = questions.filter((q) => q.split === 'test');

/** The old matcher had no accuracy/treatment/admission/imaging/location/heatmap kinds: those count as misses. */
const OLD_KINDS = new Set([
  'summary',
  'finding',
  'heart-size',
  'compare',
  'confidence',
  'next-steps',
  'differential',
  'patient',
  'normal',
  'quality',
]);

function score(guess: (q: string) => string) {
  const pairs = new Map<string, number>();
  let right = 0;
  let rightOld = 0;
  for (const q of test) {
    const g = guess(q.text);
    if (g === q.intent) {
      right++;
      if (OLD_KINDS.has(q.intent)) rightOld++;
    } else pairs.set(`${q.intent} -> ${g}`, (pairs.get(`${q.intent} -> ${g}`) ?? 0) + 1);
  }
  const oldTotal = test.filter((q) => OLD_KINDS.has(q.intent)).length;
  return {
    accuracy: right / test.length,
    accuracyOnOldKinds: rightOld / oldTotal,
    confusions: [...pairs].sort((a, b) => b[1] - a[1]).slice(0, 10),
  };
}

const before = score((q) => keywordIntent(q).kind);
const after = score((q) => classifyQuestion(q).kind);
const clf = intentClassifier();
const askedBack = test.filter((q) => clf.rank(q.text)[0]!.p < clf.floor).length;

const RESULT: TStoredResult = {
  modelVersion: 'bench',
  modelName: 'bench',
  gate: { accepted: true, reason: null, flags: [], code: null },
  findings: [
    { label: 'abnormal', display: 'Abnormal (not normal)', probability: 0.91, threshold: 0.5, call: 'positive' },
    { label: 'pneumonia', display: 'Pneumonia / lung opacity', probability: 0.888, threshold: 0.354, call: 'positive' },
    { label: 'covid19', display: 'COVID-19 pattern', probability: 0.03, threshold: 0.275, call: 'negative' },
  ],
  anatomy: {
    ctr: 0.53,
    ctrReference: 0.5,
    lungBox: [0.1, 0.1, 0.9, 0.9],
    contours: { lung: '', heart: '' },
    flags: [],
  },
  notAssessed: [{ label: 'hernia', display: 'Hernia' }],
  topFinding: 'pneumonia',
  heatmaps: [{ label: 'pneumonia', width: 128, height: 128 }],
  heatmapZones: [
    {
      label: 'pneumonia',
      zones: {
        right_upper: 0.1,
        right_middle: 0.2,
        right_lower: 0.5,
        left_upper: 0.05,
        left_middle: 0.05,
        left_lower: 0.1,
      },
    },
  ],
  image: { width: 1024, height: 1024 },
  timingsMs: {},
};

function timeEach(fn: (q: string) => unknown, rounds: number): { p50: number; p95: number } {
  for (const q of test) fn(q.text); // warm-up
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const q of test) {
      const t0 = performance.now();
      fn(q.text);
      ms.push(performance.now() - t0);
    }
  ms.sort((a, b) => a - b);
  const at = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]! * 1000) / 1000;
  return { p50: at(0.5), p95: at(0.95) };
}

const classifyMs = timeEach((q) => clf.rank(q), 5);
const answerMs = timeEach(
  (q) =>
    groundedAnswer({
      result: RESULT,
      query: q,
      history: [],
      patient: { full_name: 'Bench', age: '60', medical_history: 'None' },
      metrics: null,
    }),
  5,
);

const pctText = (v: number) => `${(v * 100).toFixed(1)} %`;
console.log(`held-out phrasings: ${test.length} (of ${questions.length})`);
console.log(
  `before (keyword matcher): ${pctText(before.accuracy)} overall, ${pctText(before.accuracyOnOldKinds)} on the kinds it knew`,
);
console.log(
  `after (classifier): ${pctText(after.accuracy)} overall, ${pctText(after.accuracyOnOldKinds)} on the old kinds`,
);
console.log(`asked back (below the floor ${clf.floor}): ${askedBack}`);
console.log('top confusions before:', before.confusions.map(([k, n]) => `${k} x${n}`).join('; '));
console.log('confusions after:', after.confusions.map(([k, n]) => `${k} x${n}`).join('; ') || 'none');
console.log(`classify one question: p50 ${classifyMs.p50} ms, p95 ${classifyMs.p95} ms`);
console.log(`answer one question (classify + grounded answer): p50 ${answerMs.p50} ms, p95 ${answerMs.p95} ms`);
console.log(
  JSON.stringify({
    bench: 'chat',
    heldOut: test.length,
    before: { accuracy: before.accuracy, accuracyOnOldKinds: before.accuracyOnOldKinds },
    after: { accuracy: after.accuracy, accuracyOnOldKinds: after.accuracyOnOldKinds, askedBack },
    confusionsAfter: Object.fromEntries(after.confusions),
    confusionsBefore: Object.fromEntries(before.confusions),
    classifyMs,
    answerMs,
  }),
);
