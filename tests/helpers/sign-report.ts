import type { TReport } from '@contracts/schemas/report.js';
import type { sessionCaller } from './session-caller.js';

type TCaller = ReturnType<typeof sessionCaller>;

/**
 * Signs as a reader does (issue 49): the report read first, its revision sent back with the
 * signature. A team study must be claimed by the caller before (issue 46 M3).
 */
export async function signAtRevision(caller: TCaller, analysisId: string): Promise<TReport> {
  const { revision } = await caller.report.get({ analysisId });
  return caller.report.sign({ analysisId, revision });
}

/** An addendum to a signed report, at the revision just read. */
export async function addendumAtRevision(caller: TCaller, analysisId: string, text: string): Promise<TReport> {
  const { revision } = await caller.report.get({ analysisId });
  return caller.report.addAddendum({ analysisId, revision, text });
}
