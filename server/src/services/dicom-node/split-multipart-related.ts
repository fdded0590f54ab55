import { AppError } from '../../lib/app-error.js';

export const STOW_MESSAGES = {
  notRelated: 'Send a multipart/related body with type="application/dicom" and a boundary',
  noParts: 'The body holds no DICOM part',
} as const;

/** The boundary of a multipart/related content type; only application/dicom parts are taken. */
export function boundaryOf(contentType: string | undefined): string {
  const ct = contentType ?? '';
  if (!/^multipart\/related\b/i.test(ct)) throw new AppError('UNSUPPORTED_MEDIA', STOW_MESSAGES.notRelated);
  const type = /;\s*type="?([^";]+)"?/i.exec(ct)?.[1];
  if (type && type.toLowerCase() !== 'application/dicom')
    throw new AppError('UNSUPPORTED_MEDIA', STOW_MESSAGES.notRelated);
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(ct)?.[1];
  if (!boundary) throw new AppError('BAD_REQUEST', STOW_MESSAGES.notRelated);
  return boundary;
}

/**
 * The bodies of a multipart/related payload (RFC 2387), each without its part headers. Parts
 * whose Content-Type is not application/dicom are dropped.
 */
export function splitMultipartRelated(body: Buffer, boundary: string): Buffer[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('latin1');
      const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim().toLowerCase();
      // The CRLF before the next delimiter belongs to the delimiter.
      const content = part.subarray(headerEnd + 4, part.length - 2);
      if (!type || type === 'application/dicom') parts.push(content);
    }
    at = next;
  }
  if (parts.length === 0) throw new AppError('BAD_REQUEST', STOW_MESSAGES.noParts);
  return parts;
}
