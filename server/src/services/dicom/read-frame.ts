import sharp from 'sharp';
import { Decoder } from 'jpeg-lossless-decoder-js';
import { AppError } from '../../lib/app-error.js';
import { decodeRle } from './decode-rle.js';
import { decodeWasmFrame } from './decode-wasm-frame.js';
import { dicomParser, TAG, type DataSet, type Element } from './dicom-lib.js';
import type { TPixelLayout } from './pixel-layout.js';
import type { TPixelEncoding } from './transfer-syntax.js';

export type { TPixelLayout };

const refuse = (message: string) => new AppError('UNSUPPORTED_MEDIA', message);

/** The first frame's compressed bytes (multi-frame files: only frame 1 is analysed). */
function encapsulatedFrame(ds: DataSet, el: Element): Uint8Array {
  if (!el.encapsulatedPixelData || !el.fragments?.length)
    throw refuse('The DICOM pixel data is not encapsulated as its transfer syntax requires');
  const frames = Number(ds.intString(TAG.numberOfFrames) ?? 1);
  if (frames <= 1) return dicomParser.readEncapsulatedPixelDataFromFragments(ds, el, 0, el.fragments.length);
  const table = el.basicOffsetTable?.length ? el.basicOffsetTable : dicomParser.createJPEGBasicOffsetTable(ds, el);
  return dicomParser.readEncapsulatedImageFrame(ds, el, 0, table);
}

/** Stored values in the narrowest array that holds them: half the memory of Int32 on a 16-bit film. */
export type TStoredSamples = Uint8Array | Int8Array | Uint16Array | Int16Array;

/**
 * Masks to BitsStored and sign-extends, because bits above BitsStored may carry overlays.
 * `owned`: raw is a scratch array of this decode (not a view of the file), rewritten in place.
 */
function toStored(raw: ArrayLike<number>, layout: TPixelLayout, n: number, owned = false): TStoredSamples {
  const bits = layout.bitsStored;
  const mask = 2 ** bits - 1;
  const signBit = 2 ** (bits - 1);
  const range = 2 ** bits;
  const signed = layout.pixelRepresentation === 1;
  const wide = bits > 8;
  let out: TStoredSamples;
  if (owned && raw instanceof Uint16Array && wide)
    out = signed ? new Int16Array(raw.buffer, raw.byteOffset, n) : raw.subarray(0, n);
  else if (owned && raw instanceof Uint8Array && !wide)
    out = signed ? new Int8Array(raw.buffer, raw.byteOffset, n) : raw.subarray(0, n);
  else out = wide ? (signed ? new Int16Array(n) : new Uint16Array(n)) : signed ? new Int8Array(n) : new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = (raw[i] ?? 0) & mask;
    out[i] = signed && v >= signBit ? v - range : v;
  }
  return out;
}

const hostIsLittleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function nativeFrame(ds: DataSet, el: Element, layout: TPixelLayout, bigEndian: boolean): TStoredSamples {
  const n = layout.rows * layout.columns;
  const bytesPer = layout.bitsAllocated / 8;
  if (el.length < n * bytesPer) throw refuse('The DICOM pixel data is shorter than its rows and columns say');
  const bytes = ds.byteArray;
  const start = bytes.byteOffset + el.dataOffset;
  if (bytesPer === 1) return toStored(new Uint8Array(bytes.buffer, start, n), layout, n);
  // A typed view when the bytes are in host order and aligned; otherwise one copying pass.
  if (!bigEndian && hostIsLittleEndian && start % 2 === 0)
    return toStored(new Uint16Array(bytes.buffer, start, n), layout, n);
  const view = new DataView(bytes.buffer, start, n * 2);
  const words = new Uint16Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint16(i * 2, !bigEndian);
  return toStored(words, layout, n, true);
}

async function jpegBaselineFrame(ds: DataSet, el: Element, layout: TPixelLayout): Promise<TStoredSamples> {
  const jpeg = Buffer.from(encapsulatedFrame(ds, el));
  const { data, info } = await sharp(jpeg, { failOn: 'error', limitInputPixels: layout.rows * layout.columns })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1 || info.width !== layout.columns || info.height !== layout.rows)
    throw refuse('The embedded JPEG does not match the DICOM image size');
  return data.subarray(0, info.width * info.height);
}

/** Height and width from the SOF3 header, read before decoding: the decoder allocates what it says. */
function losslessSize(frame: Uint8Array): { height: number; width: number } | null {
  for (let i = 0; i + 8 < frame.length; i++) {
    if (frame[i] === 0xff && frame[i + 1] === 0xc3) {
      return {
        height: ((frame[i + 5] ?? 0) << 8) | (frame[i + 6] ?? 0),
        width: ((frame[i + 7] ?? 0) << 8) | (frame[i + 8] ?? 0),
      };
    }
  }
  return null;
}

function jpegLosslessFrame(ds: DataSet, el: Element, layout: TPixelLayout): TStoredSamples {
  const frame = encapsulatedFrame(ds, el);
  const size = losslessSize(frame);
  if (!size || size.width !== layout.columns || size.height !== layout.rows)
    throw refuse('The embedded lossless JPEG does not match the DICOM image');
  const decoder = new Decoder();
  const buffer = frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.length) as ArrayBuffer;
  const decoded = decoder.decompress(buffer, 0, frame.length);
  if (decoder.xDim !== layout.columns || decoder.yDim !== layout.rows || decoder.numComp !== 1) {
    throw refuse('The embedded lossless JPEG does not match the DICOM image');
  }
  const raw = decoder.numBytes > 1 ? new Uint16Array(decoded) : new Uint8Array(decoded);
  return toStored(raw, layout, layout.rows * layout.columns, true);
}

/** Stored pixel values of frame 1, row-major, one sample per pixel. */
export async function readFrame(ds: DataSet, encoding: TPixelEncoding, layout: TPixelLayout): Promise<TStoredSamples> {
  const el = ds.elements[TAG.pixelData];
  if (!el || el.length === 0) throw new AppError('BAD_REQUEST', 'The DICOM file has no pixel data');
  try {
    switch (encoding) {
      case 'native-le':
        return nativeFrame(ds, el, layout, false);
      case 'native-be':
        return nativeFrame(ds, el, layout, true);
      case 'jpeg-baseline':
        return await jpegBaselineFrame(ds, el, layout);
      case 'jpeg-lossless':
        return jpegLosslessFrame(ds, el, layout);
      case 'rle': {
        const n = layout.rows * layout.columns;
        const raw = decodeRle(encapsulatedFrame(ds, el), n, layout.bitsAllocated);
        if (!raw) throw refuse('The RLE-compressed DICOM pixel data is damaged or not grayscale');
        return toStored(raw, layout, n, true);
      }
      case 'jpeg2000':
      case 'htj2k':
      case 'jpeg-ls':
        // samplesOf() already copied the samples out of the WebAssembly heap: ours to rewrite.
        return toStored(
          await decodeWasmFrame(encoding, encapsulatedFrame(ds, el), layout),
          layout,
          layout.rows * layout.columns,
          true,
        );
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('BAD_REQUEST', 'The DICOM pixel data could not be decoded', { cause: err });
  }
}
