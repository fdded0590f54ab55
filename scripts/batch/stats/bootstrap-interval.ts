/**
 * Seeded percentile bootstrap over clusters (patients). A film's weight in one resample is how
 * many times its patient was drawn, so films of one patient always travel together: resampling
 * films one by one would treat a patient's repeat films as independent evidence and give
 * intervals that are too narrow.
 */

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same stream on every machine. */
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

export interface TBootstrapPlan {
  /** Film indices per cluster (a patient's films; a film of its own when no patient is given). */
  clusters: readonly (readonly number[])[];
  /** Size of the weight array (largest film index + 1). */
  films: number;
  resamples: number;
  seed: number;
}

/**
 * The resamples' film weights, in order. The same plan always yields the same sequence, so two
 * statistics bootstrapped with one plan are paired: draw k of one is draw k of the other.
 */
export function* resampleWeights(plan: TBootstrapPlan): Generator<Float64Array> {
  const random = seededRandom(plan.seed);
  const k = plan.clusters.length;
  const weights = new Float64Array(plan.films);
  for (let r = 0; r < plan.resamples; r++) {
    weights.fill(0);
    for (let d = 0; d < k; d++) for (const film of plan.clusters[Math.floor(random() * k)]!) weights[film]! += 1;
    yield weights;
  }
}

/** The q-quantile of ascending `sorted` values with linear interpolation (R's type 7, numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const below = sorted[lo]!;
  const above = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  return below + (h - lo) * (above - below);
}

export interface TBootstrapResult {
  /** 2.5th and 97.5th percentiles of the defined draws; null when no draw was defined. */
  ci: [number, number] | null;
  /** Each resample's value, in order (null where the statistic was undefined, e.g. no positives drawn). */
  draws: (number | null)[];
  undefinedDraws: number;
}

export function bootstrapInterval(
  plan: TBootstrapPlan,
  statistic: (weights: Float64Array) => number | null,
): TBootstrapResult {
  const draws: (number | null)[] = [];
  for (const weights of resampleWeights(plan)) draws.push(statistic(weights));
  const defined = draws.filter((d): d is number => d !== null).sort((a, b) => a - b);
  return {
    ci: defined.length ? [quantile(defined, 0.025), quantile(defined, 0.975)] : null,
    draws,
    undefinedDraws: draws.length - defined.length,
  };
}

/** One cluster per distinct key (patient id), in first-seen order; films without a key stand alone. */
export function clustersOf(keys: readonly (string | null)[]): number[][] {
  const byKey = new Map<string, number[]>();
  const clusters: number[][] = [];
  keys.forEach((key, film) => {
    if (key === null) return void clusters.push([film]);
    const cluster = byKey.get(key);
    if (cluster) cluster.push(film);
    else {
      const fresh = [film];
      byKey.set(key, fresh);
      clusters.push(fresh);
    }
  });
  return clusters;
}
