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

/** One application/dicom part: whole, or (past the size cap) only its first bytes. */
export interface TStowPart {
  bytes: Buffer;
  /** True when the part was longer than maxPartBytes: `bytes` is its head, enough to read its UIDs. */
  oversize: boolean;
}

/** Enough of an oversize part to read its SOP Class and Instance UIDs for the failure list. */
const HEAD_BYTES = 64 * 1024;
/** Part headers are a few short lines; more than this is not a STOW request. */
const MAX_HEADER_BYTES = 16 * 1024;
export const STOW_PART_HEADERS_TOO_LONG = 'A part of the body has headers longer than 16 KiB';
export const STOW_BODY_TOO_LARGE = (max: number) =>
  `A STOW-RS request may carry at most ${Math.floor(max / (1024 * 1024))} MiB`;

type TState = 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done';

/**
 * The application/dicom parts of a multipart/related stream (RFC 2046 / 2387), one at a time as
 * they arrive (issue 36 S7: the whole body, up to 512 MiB, used to be buffered first). The
 * caller's loop pulls the next part only when it has stored the last one, so a fast sender
 * waits on TCP back-pressure instead of filling memory: at most one part (up to maxPartBytes)
 * and a chunk are held. A part past maxPartBytes is read to its end and dropped, keeping only
 * its head; a body past maxBodyBytes stops with 413. Parts of another Content-Type are skipped.
 * Pass a stream whose iterator does not destroy it on an early stop (`iterator({ destroyOnReturn:
 * false })`): the caller still has to send its answer on that connection.
 */
export async function* readMultipartRelated(opts: {
  stream: AsyncIterable<Buffer | string>;
  boundary: string;
  maxPartBytes: number;
  maxBodyBytes: number;
}): AsyncGenerator<TStowPart> {
  const { stream, boundary, maxPartBytes, maxBodyBytes } = opts;
  const first = Buffer.from(`--${boundary}`);
  // Inside the body a delimiter is always preceded by CRLF, which belongs to it (RFC 2046 5.1.1).
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pending: Buffer = Buffer.alloc(0);
  let state: TState = 'preamble';
  let total = 0;
  let yielded = 0;
  let part: { chunks: Buffer[]; size: number; take: boolean; oversize: boolean } | null = null;

  const keep = (bytes: Buffer) => {
    if (!part?.take || bytes.length === 0) return;
    part.size += bytes.length;
    if (part.oversize) return;
    if (part.size > maxPartBytes) {
      // Past the cap only the head is kept (a copy, so the rest can be freed); the rest is dropped.
      part.chunks = [Buffer.from(Buffer.concat([...part.chunks, bytes]).subarray(0, HEAD_BYTES))];
      part.oversize = true;
      return;
    }
    part.chunks.push(bytes);
  };
  const finishPart = (): TStowPart | null => {
    const done = part;
    part = null;
    return done?.take ? { bytes: Buffer.concat(done.chunks), oversize: done.oversize } : null;
  };

  for await (const raw of stream) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    total += chunk.length;
    if (total > maxBodyBytes) throw new AppError('PAYLOAD_TOO_LARGE', STOW_BODY_TOO_LARGE(maxBodyBytes));
    // After the close delimiter only the epilogue is left: read to the end, keep nothing.
    if (state === 'done') continue;
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (state === 'preamble') {
        const at = pending.indexOf(first);
        if (at === -1) {
          pending = pending.subarray(Math.max(0, pending.length - first.length + 1));
          break;
        }
        pending = pending.subarray(at + first.length);
        state = 'afterDelimiter';
      } else if (state === 'afterDelimiter') {
        if (pending.length < 2) break;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'done';
          break;
        }
        // Transport padding (spaces, tabs) may sit between the boundary and its CRLF.
        const eol = pending.indexOf('\r\n');
        if (eol === -1) {
          if (pending.length > MAX_HEADER_BYTES) throw new AppError('BAD_REQUEST', STOW_PART_HEADERS_TOO_LONG);
          break;
        }
        pending = pending.subarray(eol + 2);
        state = 'headers';
      } else if (state === 'headers') {
        // An empty header block is a CRLF right away; otherwise the headers end with a blank line.
        const end = pending.subarray(0, 2).toString('latin1') === '\r\n' ? 0 : pending.indexOf('\r\n\r\n');
        if (end === -1) {
          if (pending.length > MAX_HEADER_BYTES) throw new AppError('BAD_REQUEST', STOW_PART_HEADERS_TOO_LONG);
          break;
        }
        const headers = pending.subarray(0, end).toString('latin1');
        const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim().toLowerCase();
        part = { chunks: [], size: 0, take: !type || type === 'application/dicom', oversize: false };
        pending = pending.subarray(end === 0 ? 2 : end + 4);
        state = 'body';
      } else if (state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at === -1) {
          // Everything but a possible delimiter start at the end belongs to the part.
          const safe = Math.max(0, pending.length - delimiter.length + 1);
          keep(pending.subarray(0, safe));
          pending = Buffer.from(pending.subarray(safe));
          break;
        }
        keep(pending.subarray(0, at));
        pending = pending.subarray(at + delimiter.length);
        state = 'afterDelimiter';
        const done = finishPart();
        if (done) {
          yielded += 1;
          yield done;
        }
      } else break;
    }
  }
  if (yielded === 0) throw new AppError('BAD_REQUEST', STOW_MESSAGES.noParts);
}
