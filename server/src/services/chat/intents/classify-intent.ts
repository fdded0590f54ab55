import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { INTENT_KINDS, type TIntentKind } from './intent-kinds.js';
import { questionFeatures } from './question-features.js';

/**
 * The intent classifier: a multinomial logistic regression over hashed character n-grams
 * (question-features.ts), trained by scripts/train-chat-intents.ts on intent-questions.json and
 * committed as intent-model.json (weights quantised to int8, base64). No download, no native code:
 * one question is a few hundred multiply-adds per class.
 */
export const ZIntentModel = z.object({
  kinds: z.array(z.enum(INTENT_KINDS)).min(2),
  buckets: z.number().int().positive(),
  /** weight = int8 * scale */
  scale: z.number().positive(),
  /** base64 of an Int8Array, kinds.length rows of `buckets` weights. */
  weights: z.string(),
  bias: z.array(z.number()),
  /** Below this top probability the responder asks back instead of guessing. */
  floor: z.number().min(0).max(1),
});
export type TIntentModel = z.infer<typeof ZIntentModel>;

export interface TIntentGuess {
  kind: TIntentKind;
  p: number;
}

export interface TIntentClassifier {
  floor: number;
  /** Every kind with its probability, most likely first. */
  rank(question: string): TIntentGuess[];
}

export function createIntentClassifier(model: TIntentModel): TIntentClassifier {
  const k = model.kinds.length;
  const w = new Int8Array(Buffer.from(model.weights, 'base64'));
  if (w.length !== k * model.buckets || model.bias.length !== k) throw new Error('intent model: wrong weight shape');
  return {
    floor: model.floor,
    rank(question) {
      const { index, value } = questionFeatures(question, model.buckets);
      const logits = model.bias.slice();
      for (let c = 0; c < k; c++) {
        const row = c * model.buckets;
        let s = 0;
        for (let i = 0; i < index.length; i++) s += w[row + index[i]!]! * value[i]!;
        logits[c]! += s * model.scale;
      }
      const max = Math.max(...logits);
      const exp = logits.map((l) => Math.exp(l - max));
      const sum = exp.reduce((a, b) => a + b, 0);
      return model.kinds.map((kind, c) => ({ kind, p: exp[c]! / sum })).sort((a, b) => b.p - a.p);
    },
  };
}

export const INTENT_MODEL_URL = new URL('./intent-model.json', import.meta.url);

let shipped: TIntentClassifier | null = null;

/** The committed classifier, read once. */
export function intentClassifier(): TIntentClassifier {
  shipped ??= createIntentClassifier(ZIntentModel.parse(JSON.parse(readFileSync(INTENT_MODEL_URL, 'utf8'))));
  return shipped;
}
