import type { TInterval } from '@contracts/schemas/models.js';

/** One signed study of one finding: its patient, the signed read, and each model's probability. */
export interface TPairedCase {
  patient: string;
  present: boolean;
  live: number;
  shadow: number;
}

/** AUROC by the rank-sum (Mann-Whitney U, ties counted half); null without both classes. */
export function auroc(scores: readonly number[], present: readonly boolean[]): number | null {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  const ranks = new Float64Array(scores.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = rank;
    i = j + 1;
  }
  let pos = 0;
  let sum = 0;
  present.forEach((p, i) => {
    if (p) {
      pos++;
      sum += ranks[i]!;
    }
  });
  const neg = scores.length - pos;
  if (pos === 0 || neg === 0) return null;
  return (sum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Seeded uniform [0, 1) (mulberry32): the same seed gives the same intervals. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const percentile = (sorted: number[], q: number): number => {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
};

const interval = (value: number | null, draws: number[]): TInterval | null => {
  if (value === null || draws.length === 0) return null;
  draws.sort((a, b) => a - b);
  return { value, low: percentile(draws, 0.025), high: percentile(draws, 0.975) };
};

/**
 * Each model's AUROC and the paired difference (shadow - live), with 95 % percentile intervals
 * from resampling patients (all of a patient's studies go together, since their films are not
 * independent). A resample without both classes is skipped.
 */
export function pairedAurocs(
  cases: readonly TPairedCase[],
  resamples: number,
  seed: number,
): { live: TInterval | null; shadow: TInterval | null; difference: TInterval | null } {
  const present = cases.map((c) => c.present);
  const live = auroc(
    cases.map((c) => c.live),
    present,
  );
  const shadow = auroc(
    cases.map((c) => c.shadow),
    present,
  );
  const byPatient = new Map<string, TPairedCase[]>();
  for (const c of cases) byPatient.set(c.patient, [...(byPatient.get(c.patient) ?? []), c]);
  const groups = [...byPatient.values()];
  const rand = seededRandom(seed);
  const drawsLive: number[] = [];
  const drawsShadow: number[] = [];
  const drawsDiff: number[] = [];
  for (let b = 0; b < resamples && live !== null && shadow !== null; b++) {
    const sample: TPairedCase[] = [];
    for (let i = 0; i < groups.length; i++) sample.push(...groups[Math.floor(rand() * groups.length)]!);
    const p = sample.map((c) => c.present);
    const l = auroc(
      sample.map((c) => c.live),
      p,
    );
    const s = auroc(
      sample.map((c) => c.shadow),
      p,
    );
    if (l === null || s === null) continue;
    drawsLive.push(l);
    drawsShadow.push(s);
    drawsDiff.push(s - l);
  }
  return {
    live: interval(live, drawsLive),
    shadow: interval(shadow, drawsShadow),
    difference: live === null || shadow === null ? null : interval(shadow - live, drawsDiff),
  };
}

/** Share of studies flagged at `threshold`, and the share of those the signed read names (null: none flagged). */
export function flagRateAndPpv(
  scores: readonly number[],
  present: readonly boolean[],
  threshold: number,
): { flagRate: number; ppv: number | null } {
  let flagged = 0;
  let hits = 0;
  scores.forEach((s, i) => {
    if (s >= threshold) {
      flagged++;
      if (present[i]) hits++;
    }
  });
  return { flagRate: scores.length ? flagged / scores.length : 0, ppv: flagged ? hits / flagged : null };
}
