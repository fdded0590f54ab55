import type { ManifestHead } from './types.js';

/** Numerically stable softmax in float64. */
export function softmax(z: number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Temperature of label i: one for the whole head, or one per label. */
export function temperatureOf(head: ManifestHead, i: number): number {
  const t = head.temperature;
  return (Array.isArray(t) ? t[i] : t) ?? 1;
}

/** activation(logits / temperature + bias), as models/train/cxr_train/export/reference_whole_film.py calibrated(). */
export function calibrate(head: ManifestHead, logits: ArrayLike<number>): number[] {
  const z = Array.from(logits, (v, i) => v / temperatureOf(head, i) + (head.bias?.[i] ?? 0));
  return head.activation === 'softmax' ? softmax(z) : z.map(sigmoid);
}
