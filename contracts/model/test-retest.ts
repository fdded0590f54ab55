import { z } from 'zod';

/**
 * models/cxr/test-retest.json (scripts/measure-test-retest.ts): how much each finding's calibrated
 * probability moves when the same film is re-encoded, flipped or re-windowed, run through the real
 * pipeline. The comparison with a prior study (server/src/services/timeline/compare-results.ts)
 * calls a move "higher" or "lower" only beyond a finding's `spread`: less is the model's own noise.
 */
const ZVariantSpread = z.object({
  /** The largest absolute probability change this kind of variant made on any film. */
  max: z.number().min(0).max(1),
});

export const ZTestRetest = z.object({
  modelVersion: z.string(),
  /** The films measured (repository paths) and the variants of each (names, in order). */
  films: z.array(z.string()).min(1),
  variants: z.array(z.string()).min(1),
  /** How `spread` is taken from the per-variant changes, in words. */
  statistic: z.string(),
  findings: z.record(
    z.string(),
    z.object({
      /** Absolute probability (0..1): a move at or below it is within the measured test-retest noise. */
      spread: z.number().min(0).max(1),
      /** Variant comparisons that entered the figure (refused variants are left out). */
      n: z.number().int().min(0),
      byKind: z.record(z.string(), ZVariantSpread),
    }),
  ),
});
export type TTestRetest = z.infer<typeof ZTestRetest>;
