/** z for a two-sided 95 % interval (the 97.5th percentile of the standard normal). */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for `successes` of `trials`, 95 % by default. Chosen over the
 * normal (Wald) interval because sensitivities near 0 or 1 on small cohorts are common here, and
 * Wald then gives zero-width or out-of-range intervals. Null when there are no trials.
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): [number, number] | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // At 0 or all successes the bound is exactly 0 or 1; floating point would give 1e-17 or 0.9999….
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === trials ? 1 : Math.min(1, centre + half)];
}
