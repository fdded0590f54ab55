/**
 * Evaluation metrics for a labelled batch: ROC AUC (Mann-Whitney, ties counted half),
 * sensitivity/specificity at a threshold, confusion counts. Pure functions over numbers.
 */
export interface TScored {
  score: number;
  positive: boolean;
}

/** Area under the ROC curve; null when one class is absent (AUC is undefined then). */
export function rocAuc(items: readonly TScored[]): number | null {
  const sorted = [...items].sort((a, b) => a.score - b.score);
  const nPos = sorted.filter((s) => s.positive).length;
  const nNeg = sorted.length - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  // Average ranks over ties, then the Mann-Whitney U of the positives.
  let rankSumPos = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j < sorted.length && sorted[j]?.score === sorted[i]?.score) j++;
    const avgRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (sorted[k]?.positive) rankSumPos += avgRank;
    i = j;
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export interface TConfusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export function confusionAt(items: readonly TScored[], threshold: number): TConfusion {
  const c: TConfusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { score, positive } of items) {
    const called = score >= threshold;
    if (called && positive) c.tp++;
    else if (called) c.fp++;
    else if (positive) c.fn++;
    else c.tn++;
  }
  return c;
}

export const sensitivity = (c: TConfusion): number | null => (c.tp + c.fn ? c.tp / (c.tp + c.fn) : null);
export const specificity = (c: TConfusion): number | null => (c.tn + c.fp ? c.tn / (c.tn + c.fp) : null);
