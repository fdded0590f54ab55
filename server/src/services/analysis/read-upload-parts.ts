import type { Multipart } from '@fastify/multipart';
import { AppError } from '../../lib/app-error.js';
import { assertStorableText } from '../../lib/inspect-text.js';
import { ANALYSIS_MESSAGES, MAX_IMAGE_BYTES } from '@contracts/schemas/analysis.js';
import { DICOM_TOO_LARGE, MAX_DICOM_BYTES } from '@contracts/dicom-limits.js';
import { isDicomBytes } from '../dicom/dicom-lib.js';

/** The raw pieces of an analysis upload, before any checking of their content. */
export interface TRawUpload {
  image: Buffer | null;
  /** The `profile` field's JSON text (spec: full_name, age, medical_history). */
  profileJson: string | null;
  /** Optional: the saved patient profile the chat was started from. */
  profileId: string | null;
  /** Optional: the team the study belongs to (issue 32); absent: the personal space. */
  teamId?: string | null;
}

const FIELD_MAX = 64 * 1024;

/**
 * Reads a multipart body in whatever order its parts arrive. The image is counted while it
 * streams: past MAX_IMAGE_BYTES (MAX_DICOM_BYTES for DICOM) reading stops with 413 and nothing has been written anywhere
 * (the bytes only ever lived in this function's memory).
 */
export async function readUploadParts(parts: AsyncIterable<Multipart>): Promise<TRawUpload> {
  const out: TRawUpload = { image: null, profileJson: null, profileId: null, teamId: null };
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'image' || out.image) {
          part.file.resume();
          continue;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        // DICOM files (magic at byte 128, whatever the name or type says) get their own larger cap.
        let cap: { bytes: number; message: string } | null = null;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          chunks.push(chunk);
          if (!cap && size >= 132)
            cap = isDicomBytes(Buffer.concat(chunks))
              ? { bytes: MAX_DICOM_BYTES, message: DICOM_TOO_LARGE }
              : { bytes: MAX_IMAGE_BYTES, message: ANALYSIS_MESSAGES.tooLarge };
          if (size >= (cap?.bytes ?? MAX_IMAGE_BYTES) || part.file.truncated)
            throw new AppError('PAYLOAD_TOO_LARGE', cap?.message ?? ANALYSIS_MESSAGES.tooLarge);
        }
        if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooLarge);
        out.image = Buffer.concat(chunks, size);
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value ?? '');
      if (value.length > FIELD_MAX || part.valueTruncated)
        throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.invalidProfile);
      // The same text check as JSON bodies get (refuse-nul.ts), on the field and on the JSON inside it.
      assertStorableText({ [part.fieldname]: value });
      if (part.fieldname === 'profile') assertStorableText(parseOrNull(value));
      if (part.fieldname === 'profile') out.profileJson = value;
      else if (part.fieldname === 'profile_id' || part.fieldname === 'profileId') out.profileId = value.trim() || null;
      else if (part.fieldname === 'team_id' || part.fieldname === 'teamId') out.teamId = value.trim() || null;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { statusCode?: number; code?: string };
    // Not a size problem, though @fastify/multipart answers these with 413 too (issue 23 Info).
    if (e.code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.oneImage);
    if (e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT')
      throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.tooManyFields);
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooLarge);
    // Anything else here is the multipart parser rejecting a malformed body ('Unexpected end of
    // form', a bad boundary): the client's fault, not ours.
    throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.imageRequired, { cause: err });
  }
  if (!out.image || out.image.length === 0) throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.imageRequired);
  return out;
}

/** The profile field's JSON, to check its strings; text that does not parse is refused later with its own message. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
