import type { TReport } from '@contracts/schemas/report.js';

/**
 * The signed radiology report (issue 41) as the PDF and DOCX print it: a heading that says
 * FINAL (or FINAL, AMENDED) with the signer, then the sections and the signed addenda.
 */
export function signedReportText(signed: TReport): { heading: string; signature: string; blocks: [string, string][] } {
  const s = signed.sections;
  return {
    heading: signed.status === 'amended' ? 'Radiology report — FINAL, AMENDED' : 'Radiology report — FINAL',
    signature: `FINAL: signed by ${signed.signedBy ?? 'a former member'} at ${signed.signedAt ?? ''}`,
    blocks: [
      ['EXAMINATION', s.examination],
      ['COMPARISON', s.comparison],
      ['FINDINGS', s.findings],
      ['IMPRESSION', s.impression],
      ...signed.addenda.map((a): [string, string] => [`ADDENDUM (signed by ${a.signedBy} at ${a.signedAt})`, a.text]),
    ],
  };
}
