import type { TReportDelivery } from '@contracts/schemas/report';

const DESTINATION: Record<TReportDelivery['destination'], string> = {
  dicom: 'PACS (DICOM SR)',
  hl7: 'RIS (HL7)',
};

/** A stored failure code in words: a network code (ECONNREFUSED, ETIMEDOUT…) reads "network error". */
function errorWords(code: string | null): string {
  if (!code) return 'no reason recorded';
  if (/^E[A-Z]+$/.test(code)) return `network error (${code})`;
  if (code.startsWith('ACK ')) return `refused by the RIS (${code})`;
  return code;
}

/** Where a delivery goes, and for an addendum says so: 'RIS (HL7), addendum'. */
export const deliveryTarget = (d: TReportDelivery): string =>
  `${DESTINATION[d.destination]}${d.carries === 'addendum' ? ', addendum' : ''}`;

/** Its state in words, not colour: 'delivered', 'retrying, attempt 3', 'failed — network error (ECONNREFUSED)'. */
export function deliveryState(d: TReportDelivery): string {
  if (d.status === 'delivered') return 'delivered';
  if (d.status === 'failed') return `failed — ${errorWords(d.lastError)}`;
  // attempts counts the tries made: the one under way or next is attempts + 1.
  return d.attempts === 0 ? 'sending' : `retrying, attempt ${d.attempts + 1} (last: ${errorWords(d.lastError)})`;
}
