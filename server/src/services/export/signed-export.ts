import { isCalled } from '@contracts/finding-call.js';
import type { TExportFinding, TExportSigned } from '@contracts/schemas/export.js';
import type { TReport } from '@contracts/schemas/report.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';
import { signedAsPresent } from '../chat/responders/signed-report-facts.js';
import { impressionLabels } from '../models/impression-labels.js';

const named = ({ label, display }: { label: string; display: string }) => ({ label, display });

/**
 * The export's `report.signed` (issue 49): the signed sections and addenda, and which of the
 * model's findings the signed report leaves out or adds, by the product's one reading of "named
 * as present" (the chat's, signed-report-facts.ts). Removed: flagged by the model, named as
 * present nowhere in the signed text; added: not flagged, named as present by the impression.
 * The summary (triage) score is not a finding a reader names. Null for a draft.
 */
export function signedExport(report: TReport | null, findings: readonly TExportFinding[]): TExportSigned | null {
  if (!report || report.status === 'draft' || !report.signedAt) return null;
  const specific = findings.filter((f) => f.label !== SUMMARY_LABEL);
  const stated = impressionLabels(report.sections.impression, specific);
  return {
    status: report.status,
    signedBy: report.signedBy,
    signedAt: report.signedAt,
    sections: { ...report.sections },
    addenda: report.addenda.map((a) => ({ text: a.text, signedBy: a.signedBy, signedAt: a.signedAt })),
    removed: specific.filter((f) => isCalled(f.call) && !signedAsPresent(report, f)).map(named),
    added: specific.filter((f) => !isCalled(f.call) && stated.has(f.label)).map(named),
  };
}
