import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Multipart } from '@fastify/multipart';
import { MODEL_IMPORT_MESSAGES } from '@contracts/schemas/models.js';
import { AppError } from '../../lib/app-error.js';
import { assertStorableText } from '../../lib/inspect-text.js';

/** A manifest is a small JSON file; anything larger is not one. */
const MANIFEST_MAX_BYTES = 1024 * 1024;
const FIELD_MAX = 1024;

export interface TReceivedUpload {
  fields: Record<string, string>;
  /** Whether the `manifest` file part arrived (written as manifest.json beside model.onnx). */
  manifest: boolean;
}

/** Writes one file part to `file`, counting its bytes as they arrive; past `max` it stops with `tooLarge`. */
async function streamTo(part: Extract<Multipart, { type: 'file' }>, file: string, max: number, tooLarge: AppError) {
  const out = createWriteStream(file);
  let size = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max || part.file.truncated) throw tooLarge;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (part.file.truncated) throw tooLarge;
  } finally {
    out.end();
    await once(out, 'close');
  }
  return size;
}

/**
 * Streams a model upload (issue 47) into its staging folder: the `file` part to model.onnx, the
 * optional `manifest` part to manifest.json, the text fields kept. The ONNX file is counted while
 * it streams and refused past MODEL_IMPORT_MAX_MB; on any refusal the staging folder is removed,
 * so nothing of a refused upload stays on disk. The server never opens the model itself.
 */
export async function receiveModelUpload(
  parts: AsyncIterable<Multipart>,
  staging: string,
  maxBytes: number,
): Promise<TReceivedUpload> {
  await mkdir(staging, { recursive: true });
  const got: TReceivedUpload = { fields: {}, manifest: false };
  let modelBytes = 0;
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && modelBytes === 0) {
          const tooLarge = new AppError('PAYLOAD_TOO_LARGE', MODEL_IMPORT_MESSAGES.tooLarge(maxBytes));
          modelBytes = await streamTo(part, path.join(staging, 'model.onnx'), maxBytes, tooLarge);
        } else if (part.fieldname === 'manifest' && !got.manifest) {
          const tooLarge = new AppError('PAYLOAD_TOO_LARGE', MODEL_IMPORT_MESSAGES.manifestTooLarge);
          got.manifest = (await streamTo(part, path.join(staging, 'manifest.json'), MANIFEST_MAX_BYTES, tooLarge)) > 0;
        } else part.file.resume();
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : '';
      if (value.length > FIELD_MAX || part.valueTruncated)
        throw new AppError('BAD_REQUEST', `${part.fieldname} is too long`);
      assertStorableText({ [part.fieldname]: value });
      got.fields[part.fieldname] = value.trim();
    }
    if (modelBytes === 0) throw new AppError('BAD_REQUEST', MODEL_IMPORT_MESSAGES.fileRequired);
    return got;
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    if (err instanceof AppError) throw err;
    const e = err as { statusCode?: number; code?: string };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', MODEL_IMPORT_MESSAGES.tooLarge(maxBytes));
    // The multipart parser refusing a malformed body (a bad boundary, a cut-off form): the client's fault.
    throw new AppError('BAD_REQUEST', MODEL_IMPORT_MESSAGES.fileRequired, { cause: err });
  }
}
