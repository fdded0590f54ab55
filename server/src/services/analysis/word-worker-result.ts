import { ZStoredResult, type TStoredResult, type TWorkerResult } from '@contracts/schemas/analysis.js';
import { CTR_UNRELIABLE_REASONS } from './anatomy-text.js';
import { refusalText } from './refusal-text.js';

/**
 * A worker's result as the server stores it: the worker sends codes, never report text, and the
 * sentences are written here from the server's text modules: the refusal (`gate.reason`, null when
 * accepted) and why a flagged CTR cannot be trusted (`anatomy.ctrUnreliable.reason`). Pure.
 */
export function wordWorkerResult(result: TWorkerResult): TStoredResult {
  const { gate, anatomy } = result;
  const reason = gate.code === null ? null : refusalText(gate.code, gate.minSide);
  const ctrUnreliable = anatomy?.ctrUnreliable
    ? { code: anatomy.ctrUnreliable.code, reason: CTR_UNRELIABLE_REASONS[anatomy.ctrUnreliable.code] }
    : anatomy?.ctrUnreliable;
  return ZStoredResult.parse({
    ...result,
    gate: { accepted: gate.accepted, reason, flags: gate.flags, code: gate.code },
    ...(anatomy ? { anatomy: { ...anatomy, ctrUnreliable } } : {}),
  });
}
