import type { ManifestHead } from './types.js';

/** Numerically stable softmax in float64. */
export function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

/** activation(logits / temperature + bias), as models/train/pipeline.py calibrated(). */
export function calibrate(head: ManifestHead, logits: ArrayLike<number>): number[] {
  const t = head.temperature ?? 1;
  const z = Array.from(logits, (v, i) => v / t + (head.bias?.[i] ?? 0));
  return head.activation === 'softmax' ? softmax(z) : z.map((v) => 1 / (1 + Math.exp(-v)));
}
