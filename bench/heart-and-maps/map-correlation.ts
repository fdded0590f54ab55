import type { Heatmap } from '../../worker/src/pipeline/types.js';

/** Pearson correlation of two maps, over every cell or over the cells either map covers. */
export function mapCorrelation(a: Heatmap, b: Heatmap, where: 'grid' | 'support'): number | null {
  let n = 0;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = Number(a.data[i]);
    const y = Number(b.data[i]);
    if (where === 'support' && x === 0 && y === 0) continue;
    n++;
    sa += x;
    sb += y;
    saa += x * x;
    sbb += y * y;
    sab += x * y;
  }
  if (n < 2) return null;
  const cov = sab / n - (sa / n) * (sb / n);
  const va = saa / n - (sa / n) ** 2;
  const vb = sbb / n - (sb / n) ** 2;
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : null;
}
