export interface TReliabilityBin {
  lo: number;
  hi: number;
  n: number;
  /** Mean predicted probability in the bin; null for an empty bin. */
  meanPredicted: number | null;
  /** Fraction of the bin's films that are positive; null for an empty bin. */
  observed: number | null;
}

export interface TCalibration {
  n: number;
  /** Expected calibration error: the film-weighted mean gap between predicted and observed per bin. */
  ece: number | null;
  /** Mean squared difference between probability and outcome (0 perfect, 0.25 a constant 0.5). */
  brier: number | null;
  bins: TReliabilityBin[];
}

/** ECE over `binCount` equal-width bins ([0, 0.1), …, [0.9, 1.0]), Brier score, and the bins for a reliability diagram. */
export function measureCalibration(
  items: readonly { probability: number; positive: boolean }[],
  binCount = 10,
): TCalibration {
  const sums = Array.from({ length: binCount }, () => ({ n: 0, p: 0, y: 0 }));
  let squared = 0;
  for (const { probability, positive } of items) {
    const y = positive ? 1 : 0;
    squared += (probability - y) ** 2;
    const bin = sums[Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount)))]!;
    bin.n++;
    bin.p += probability;
    bin.y += y;
  }
  const n = items.length;
  const bins = sums.map((s, i): TReliabilityBin => ({
    lo: i / binCount,
    hi: (i + 1) / binCount,
    n: s.n,
    meanPredicted: s.n ? s.p / s.n : null,
    observed: s.n ? s.y / s.n : null,
  }));
  const ece = n ? sums.reduce((acc, s) => acc + (s.n ? Math.abs(s.p - s.y) / n : 0), 0) : null;
  return { n, ece, brier: n ? squared / n : null, bins };
}
