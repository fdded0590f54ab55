import { AppError } from '../../lib/app-error.js';
import type { TPixelLayout } from './pixel-layout.js';
import { createDecoder, discardCodec, type TCodec, type TFrameInfo } from './wasm-codecs.js';

const refuse = (message: string) => new AppError('UNSUPPORTED_MEDIA', message);
const NAMES: Record<TCodec, string> = { jpeg2000: 'JPEG 2000', htj2k: 'HTJ2K', 'jpeg-ls': 'JPEG-LS' };

const u16 = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u32 = (b: Uint8Array, i: number) => u16(b, i) * 65536 + u16(b, i + 2);

function indexOf(bytes: Uint8Array, marker: readonly number[], limit: number): number {
  const end = Math.min(bytes.length - marker.length, limit);
  for (let i = 0; i <= end; i++) if (marker.every((m, k) => bytes[i + k] === m)) return i;
  return -1;
}

/**
 * The image header, read before decoding: the decoder allocates whatever the stream claims, so
 * a file whose stream disagrees with its DICOM tags (or with the pixel cap those tags passed)
 * is refused before any pixel memory is taken. J2K and HTJ2K share the SIZ marker; a JP2 box
 * wrapper (some archives write one) is skipped to the codestream inside.
 */
function readHeader(codec: TCodec, frame: Uint8Array): { stream: Uint8Array; info: TFrameInfo } | null {
  if (codec === 'jpeg-ls') {
    const sof = indexOf(frame, [0xff, 0xf7], 4096);
    if (sof < 0) return null;
    return {
      stream: frame,
      info: {
        bitsPerSample: frame[sof + 4] ?? 0,
        height: u16(frame, sof + 5),
        width: u16(frame, sof + 7),
        componentCount: frame[sof + 9] ?? 0,
      },
    };
  }
  const soc = indexOf(frame, [0xff, 0x4f, 0xff, 0x51], 4096);
  if (soc < 0) return null;
  const siz = soc + 4;
  const ssiz = frame[siz + 38] ?? 0;
  return {
    stream: frame.subarray(soc),
    info: {
      width: u32(frame, siz + 4) - u32(frame, siz + 12),
      height: u32(frame, siz + 8) - u32(frame, siz + 16),
      componentCount: u16(frame, siz + 36),
      bitsPerSample: (ssiz & 0x7f) + 1,
      isSigned: (ssiz & 0x80) !== 0,
    },
  };
}

function matches(info: TFrameInfo, layout: TPixelLayout): boolean {
  return (
    info.width === layout.columns &&
    info.height === layout.rows &&
    info.componentCount === 1 &&
    info.bitsPerSample >= 1 &&
    info.bitsPerSample <= 16
  );
}

/** Copies the samples out of the WebAssembly heap (the decoder's view dies with it). */
function samplesOf(
  decoded: Uint8Array,
  info: TFrameInfo,
  n: number,
): Uint8Array | Int8Array | Uint16Array | Int16Array {
  const bytes = decoded.slice(0, n * (info.bitsPerSample > 8 ? 2 : 1));
  if (info.bitsPerSample > 8)
    return info.isSigned ? new Int16Array(bytes.buffer, 0, n) : new Uint16Array(bytes.buffer, 0, n);
  return info.isSigned ? new Int8Array(bytes.buffer, 0, n) : bytes;
}

/** Frame 1 of a JPEG 2000, HTJ2K or JPEG-LS DICOM: raw samples, one per pixel, row-major. */
export async function decodeWasmFrame(
  codec: TCodec,
  frame: Uint8Array,
  layout: TPixelLayout,
): Promise<ArrayLike<number>> {
  const header = readHeader(codec, frame);
  if (!header || !matches(header.info, layout))
    throw refuse(`The embedded ${NAMES[codec]} image does not match the DICOM image (grayscale, the same size)`);
  const decoder = await createDecoder(codec);
  try {
    decoder.getEncodedBuffer(header.stream.length).set(header.stream);
    decoder.decode();
    const info = decoder.getFrameInfo();
    if (!matches(info, layout))
      throw refuse(`The embedded ${NAMES[codec]} image does not match the DICOM image (grayscale, the same size)`);
    const n = layout.rows * layout.columns;
    const decoded = decoder.getDecodedBuffer();
    if (decoded.length < n * (info.bitsPerSample > 8 ? 2 : 1))
      throw new AppError('BAD_REQUEST', `The ${NAMES[codec]} pixel data is damaged`);
    return samplesOf(decoded, { ...info, isSigned: info.isSigned ?? header.info.isSigned ?? false }, n);
  } catch (err) {
    if (!(err instanceof AppError)) discardCodec(codec);
    throw err;
  } finally {
    try {
      decoder.delete();
    } catch {
      // Already unusable after an abort; the module has been discarded above.
    }
  }
}
