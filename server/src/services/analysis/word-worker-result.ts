import type { TModelMetrics } from '@contracts/model/metrics.js';
import { ZStoredResult, type TStoredResult, type TWorkerResult } from '@contracts/schemas/analysis.js';
import { CTR_UNRELIABLE_REASONS, noCtrFindingReason } from './anatomy-text.js';
import { refusalText } from './refusal-text.js';

/**
 * A worker's result as the server stores it: the worker sends codes, never report text, and the
 * sentences are written here from the server's text modules: the refusal (`gate.reason`, null when
 * accepted), why a flagged CTR cannot be trusted (`anatomy.ctrUnreliable.reason`) and why a
 * finding that needs the measured heart has no call (`notAssessed[].reason`, code 'no_ctr'). A
 * withdrawn output gets its external figure from the model's metrics (null when they have none,
 * or are another version's). Pure.
 */
export function wordWorkerResult(result: TWorkerResult, metrics: TModelMetrics | null = null): TStoredResult {
  const { gate, anatomy } = result;
  const reason = gate.code === null ? null : refusalText(gate.code, gate.minSide);
  const ctrUnreliable = anatomy?.ctrUnreliable
    ? { code: anatomy.ctrUnreliable.code, reason: CTR_UNRELIABLE_REASONS[anatomy.ctrUnreliable.code] }
    : (anatomy?.ctrUnreliable as null | undefined);
  const worded = anatomy ? { ...anatomy, ctrUnreliable } : anatomy;
  const notAssessed = result.notAssessed?.map((n) =>
    n.code === 'no_ctr' ? { ...n, reason: noCtrFindingReason(worded) } : n,
  );
  const figures = metrics?.modelVersion === result.modelVersion ? metrics.external?.candidates : undefined;
  const withdrawn = result.withdrawn?.map((w) => {
    const e = figures?.[w.label];
    return { ...w, external: e ? { auc: e.auc, aucCi95: e.aucCi95, population: e.population } : null };
  });
  return ZStoredResult.parse({
    ...result,
    gate: { accepted: gate.accepted, reason, flags: gate.flags, code: gate.code },
    ...(anatomy ? { anatomy: worded } : {}),
    ...(notAssessed ? { notAssessed } : {}),
    ...(withdrawn ? { withdrawn } : {}),
  });
}
