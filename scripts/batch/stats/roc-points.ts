/**
 * The empirical ROC curve as (false-positive rate, true-positive rate) points from (0, 0) to
 * (1, 1), one step per distinct score from the highest down (tied scores move diagonally, which
 * is what makes the area under these points equal the tie-halving AUROC).
 */
export function rocPoints(items: readonly { score: number; positive: boolean }[]): [number, number][] {
  const pos = items.filter((i) => i.positive).length;
  const neg = items.length - pos;
  if (!pos || !neg) return [];
  const sorted = [...items].sort((a, b) => b.score - a.score);
  const points: [number, number][] = [[0, 0]];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length;) {
    const score = sorted[i]!.score;
    for (; i < sorted.length && sorted[i]!.score === score; i++) {
      if (sorted[i]!.positive) tp++;
      else fp++;
    }
    points.push([fp / neg, tp / pos]);
  }
  return points;
}
