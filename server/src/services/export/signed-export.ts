import type { TExportFinding, TExportSigned } from '@contracts/schemas/export.js';
import type { TReport } from '@contracts/schemas/report.js';
import { impressionChanges } from '../report/impression-changes.js';

const named = ({ label, display }: { label: string; display: string }) => ({ label, display });

/**
 * The export's `report.signed` (issue 49): the signed sections and addenda, and which of the
 * model's findings the signed impression left out or added, by the same reading the signature's
 * feedback uses (`impressionChanges`). Null for a draft (or a signed row without its time).
 */
export function signedExport(report: TReport | null, findings: readonly TExportFinding[]): TExportSigned | null {
  if (!report || report.status === 'draft' || !report.signedAt) return null;
  const changes = impressionChanges(findings, report.sections.impression);
  return {
    status: report.status,
    signedBy: report.signedBy,
    signedAt: report.signedAt,
    sections: { ...report.sections },
    addenda: report.addenda.map((a) => ({ text: a.text, signedBy: a.signedBy, signedAt: a.signedAt })),
    removed: changes.filter((c) => c.change === 'removed').map((c) => named(c.finding)),
    added: changes.filter((c) => c.change === 'added').map((c) => named(c.finding)),
  };
}
