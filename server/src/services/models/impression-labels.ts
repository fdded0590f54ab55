import type { TReport } from '@contracts/schemas/report.js';
import { signedAsPresent } from '../chat/responders/signed-report-facts.js';

/**
 * The labels a comparison is scored against (issue 47): the department's signed read. A finding
 * is present when the signed impression names it as present, by the same rule the chat reads a
 * signed report with (signed-report-facts.ts: the knowledge notes' names, "No pleural effusion"
 * negates); every other finding of the study, including one the radiologist removed from the
 * model's draft, is absent.
 */
export function impressionLabels(
  impression: string,
  findings: readonly { label: string; display: string }[],
): Set<string> {
  // Only the impression counts: the findings section describes, the impression concludes.
  const report = {
    sections: { examination: '', comparison: '', findings: '', impression },
    addenda: [],
  } as unknown as TReport;
  return new Set(findings.filter((f) => signedAsPresent(report, f)).map((f) => f.label));
}
