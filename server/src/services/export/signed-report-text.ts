import type { TExportSigned } from '@contracts/schemas/export.js';

/** '2026-11-29T06:35:55.114Z' → '2026-11-29 06:35 UTC': a document read on paper says its zone. */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * The signed radiology report (issues 41, 49) as every export words it: the signer and time
 * first (FINAL, or FINAL, AMENDED after addenda), then the sections and the signed addenda.
 */
export function signedReportText(signed: TExportSigned): {
  title: string;
  signature: string;
  blocks: [string, string][];
} {
  const s = signed.sections;
  const status = signed.status === 'amended' ? 'FINAL, AMENDED' : 'FINAL';
  return {
    title: 'Radiology report',
    signature: `${status}: signed by ${signed.signedBy ?? 'a former member'} at ${utcTime(signed.signedAt)}`,
    blocks: [
      ['EXAMINATION', s.examination],
      ['COMPARISON', s.comparison],
      ['FINDINGS', s.findings],
      ['IMPRESSION', s.impression],
      ...signed.addenda.map((a): [string, string] => [
        `ADDENDUM (signed by ${a.signedBy} at ${utcTime(a.signedAt)})`,
        a.text,
      ]),
    ],
  };
}

/** The same as plain text: FHIR's `presentedForm`, one block a paragraph. */
export function signedReportPlain(signed: TExportSigned): string {
  const t = signedReportText(signed);
  return [t.title, t.signature, ...t.blocks.map(([title, text]) => `${title}:\n${text}`)].join('\n\n');
}
