import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { encodeJpegLossless } from './write-jpeg-lossless.js';
import { encodeWasmCodestream } from './write-wasm-codestream.js';

/**
 * Writes DICOM Part 10 files from sample pixel arrays, so the DICOM tests need no fixture files
 * and each can state exactly what the file contains.
 */
export interface TDicomSpec {
  width: number;
  height: number;
  /** Stored values, row-major (signed when pixelRepresentation is 1). */
  pixels: ArrayLike<number>;
  bitsAllocated?: 8 | 16;
  bitsStored?: number;
  pixelRepresentation?: 0 | 1;
  photometric?: 'MONOCHROME1' | 'MONOCHROME2' | 'RGB';
  /** null leaves the tag out. */
  modality?: string | null;
  /** jpeg2000, htj2k and jpeg-ls are real lossless codestreams; jpeg-extended is a stub (a syntax we refuse). */
  syntax?:
    | 'explicit'
    | 'implicit'
    | 'deflated'
    | 'big-endian'
    | 'jpeg-baseline'
    | 'jpeg-lossless'
    | 'rle'
    | 'jpeg2000'
    | 'htj2k'
    | 'jpeg-ls'
    | 'jpeg-extended';
  window?: { center: number; width: number; fn?: string };
  rescale?: { slope: number; intercept: number };
  voiLut?: { firstMapped: number; bits: number; data: number[] };
  patientName?: string;
  patientAge?: string;
  patientBirthDate?: string;
  studyDate?: string;
  /** Bytes to put in the preamble (which the product must zero before storing). */
  preamble?: Buffer;
  /** A ready-made compressed frame to encapsulate as is (pixels are then ignored). */
  frame?: Buffer;
}

const UIDS = {
  explicit: '1.2.840.10008.1.2.1',
  implicit: '1.2.840.10008.1.2',
  deflated: '1.2.840.10008.1.2.1.99',
  'big-endian': '1.2.840.10008.1.2.2',
  'jpeg-baseline': '1.2.840.10008.1.2.4.50',
  'jpeg-lossless': '1.2.840.10008.1.2.4.70',
  rle: '1.2.840.10008.1.2.5',
  jpeg2000: '1.2.840.10008.1.2.4.90',
  htj2k: '1.2.840.10008.1.2.4.201',
  'jpeg-ls': '1.2.840.10008.1.2.4.80',
  'jpeg-extended': '1.2.840.10008.1.2.4.51',
} as const;
const LONG_VRS = new Set(['OB', 'OW', 'OF', 'SQ', 'UT', 'UN']);
const UNDEFINED = 0xffffffff;

type El = { group: number; element: number; vr: string; value: Buffer; undefinedLength?: boolean };

function text(vr: string, s: string): Buffer {
  const b = Buffer.from(s, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from(vr === 'UI' ? [0] : [0x20])]) : b;
}
function us(values: number[], be: boolean): Buffer {
  const b = Buffer.alloc(values.length * 2);
  values.forEach((v, i) => (be ? b.writeUInt16BE(v & 0xffff, i * 2) : b.writeUInt16LE(v & 0xffff, i * 2)));
  return b;
}
function ul(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
}

function encode(els: El[], explicit: boolean, be: boolean): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...els].sort((a, b) => a.group - b.group || a.element - b.element)) {
    const head = Buffer.alloc(explicit ? (LONG_VRS.has(e.vr) ? 12 : 8) : 8);
    const w16 = (v: number, o: number) => (be ? head.writeUInt16BE(v, o) : head.writeUInt16LE(v, o));
    const w32 = (v: number, o: number) => (be ? head.writeUInt32BE(v, o) : head.writeUInt32LE(v, o));
    w16(e.group, 0);
    w16(e.element, 2);
    const len = e.undefinedLength ? UNDEFINED : e.value.length;
    if (!explicit) w32(len, 4);
    else {
      head.write(e.vr, 4, 'latin1');
      if (LONG_VRS.has(e.vr)) w32(len, 8);
      else w16(len, 6);
    }
    parts.push(head, e.value);
  }
  return Buffer.concat(parts);
}

/** RLE Lossless (PS3.5 Annex G): one PackBits segment per byte plane, high byte first. */
function encodeRle(pixels: ArrayLike<number>, bits: number): Buffer {
  const planes = bits === 16 ? [(v: number) => (v >> 8) & 0xff, (v: number) => v & 0xff] : [(v: number) => v & 0xff];
  const segments = planes.map((byteOf) => {
    const bytes = Array.from(pixels, byteOf);
    const out: number[] = [];
    for (let i = 0; i < bytes.length;) {
      // Runs of 3+ equal bytes as a replicate run, the rest as literal runs (both PackBits).
      let run = 1;
      while (i + run < bytes.length && run < 128 && bytes[i + run] === bytes[i]) run++;
      if (run >= 3) {
        out.push(257 - run, bytes[i] ?? 0);
        i += run;
        continue;
      }
      const lit = bytes.slice(i, Math.min(i + 128, bytes.length));
      out.push(lit.length - 1, ...lit);
      i += lit.length;
    }
    if (out.length % 2) out.push(0x80); // pad to even with a no-op
    return Buffer.from(out);
  });
  const header = Buffer.alloc(64);
  header.writeUInt32LE(segments.length, 0);
  let offset = 64;
  segments.forEach((seg, s) => {
    header.writeUInt32LE(offset, 4 + s * 4);
    offset += seg.length;
  });
  return Buffer.concat([header, ...segments]);
}

/** Encapsulated pixel data: an empty basic offset table, one fragment, a sequence delimiter. */
function encapsulate(frame: Buffer): Buffer {
  const padded = frame.length % 2 ? Buffer.concat([frame, Buffer.from([0])]) : frame;
  const item = (len: number) => Buffer.concat([us([0xfffe, 0xe000], false), ul(len)]);
  return Buffer.concat([item(0), item(padded.length), padded, us([0xfffe, 0xe0dd], false), ul(0)]);
}

async function pixelData(
  spec: TDicomSpec,
  bits: number,
  be: boolean,
): Promise<{ vr: string; value: Buffer; undefinedLength?: boolean }> {
  const { width, height, pixels } = spec;
  const syntax = spec.syntax ?? 'explicit';
  if (spec.frame) return { vr: 'OB', value: encapsulate(spec.frame), undefinedLength: true };
  if (syntax === 'jpeg-baseline') {
    const jpeg = await sharp(Buffer.from(Uint8Array.from(pixels)), { raw: { width, height, channels: 1 } })
      .toColourspace('b-w')
      .jpeg({ quality: 95 })
      .toBuffer();
    return { vr: 'OB', value: encapsulate(jpeg), undefinedLength: true };
  }
  if (syntax === 'jpeg-lossless') {
    return {
      vr: 'OB',
      value: encapsulate(encodeJpegLossless(pixels, width, height, spec.bitsStored ?? bits)),
      undefinedLength: true,
    };
  }
  if (syntax === 'rle') return { vr: 'OB', value: encapsulate(encodeRle(pixels, bits)), undefinedLength: true };
  if (syntax === 'jpeg2000' || syntax === 'htj2k' || syntax === 'jpeg-ls') {
    const stream = await encodeWasmCodestream(
      syntax,
      pixels,
      width,
      height,
      spec.bitsStored ?? bits,
      spec.pixelRepresentation === 1,
    );
    return { vr: 'OB', value: encapsulate(stream), undefinedLength: true };
  }
  if (syntax === 'jpeg-extended')
    return { vr: 'OB', value: encapsulate(Buffer.from([0xff, 0xd8, 0xff, 0xc1])), undefinedLength: true };
  if (bits === 8) return { vr: 'OB', value: Buffer.from(Array.from(pixels, (v) => v & 0xff)) };
  return { vr: 'OW', value: us(Array.from(pixels), be) };
}

export async function writeDicom(spec: TDicomSpec): Promise<Buffer> {
  const syntax = spec.syntax ?? 'explicit';
  const explicit = syntax !== 'implicit';
  const be = syntax === 'big-endian';
  const bits = spec.bitsAllocated ?? 16;
  const stored = spec.bitsStored ?? bits;
  const els: El[] = [
    { group: 0x0008, element: 0x0016, vr: 'UI', value: text('UI', '1.2.840.10008.5.1.4.1.1.1.1') },
    { group: 0x0008, element: 0x0018, vr: 'UI', value: text('UI', '2.25.1234567890') },
    { group: 0x0028, element: 0x0002, vr: 'US', value: us([spec.photometric === 'RGB' ? 3 : 1], be) },
    { group: 0x0028, element: 0x0004, vr: 'CS', value: text('CS', spec.photometric ?? 'MONOCHROME2') },
    { group: 0x0028, element: 0x0010, vr: 'US', value: us([spec.height], be) },
    { group: 0x0028, element: 0x0011, vr: 'US', value: us([spec.width], be) },
    { group: 0x0028, element: 0x0100, vr: 'US', value: us([bits], be) },
    { group: 0x0028, element: 0x0101, vr: 'US', value: us([stored], be) },
    { group: 0x0028, element: 0x0102, vr: 'US', value: us([stored - 1], be) },
    { group: 0x0028, element: 0x0103, vr: 'US', value: us([spec.pixelRepresentation ?? 0], be) },
    { group: 0x7fe0, element: 0x0010, ...(await pixelData(spec, bits, be)) },
  ];
  const str = (group: number, element: number, vr: string, v: string | undefined) => {
    if (v !== undefined) els.push({ group, element, vr, value: text(vr, v) });
  };
  str(0x0008, 0x0020, 'DA', spec.studyDate);
  str(0x0008, 0x0060, 'CS', spec.modality === null ? undefined : (spec.modality ?? 'DX'));
  str(0x0010, 0x0010, 'PN', spec.patientName);
  str(0x0010, 0x0030, 'DA', spec.patientBirthDate);
  str(0x0010, 0x1010, 'AS', spec.patientAge);
  str(0x0028, 0x1050, 'DS', spec.window ? String(spec.window.center) : undefined);
  str(0x0028, 0x1051, 'DS', spec.window ? String(spec.window.width) : undefined);
  str(0x0028, 0x1056, 'CS', spec.window?.fn);
  str(0x0028, 0x1052, 'DS', spec.rescale ? String(spec.rescale.intercept) : undefined);
  str(0x0028, 0x1053, 'DS', spec.rescale ? String(spec.rescale.slope) : undefined);
  if (spec.voiLut) {
    const { firstMapped, bits: lutBits, data } = spec.voiLut;
    const item = encode(
      [
        { group: 0x0028, element: 0x3002, vr: 'US', value: us([data.length, firstMapped, lutBits], be) },
        { group: 0x0028, element: 0x3006, vr: 'OW', value: us(data, be) },
      ],
      explicit,
      be,
    );
    const itemHead = Buffer.alloc(8);
    if (be) {
      itemHead.writeUInt16BE(0xfffe, 0);
      itemHead.writeUInt16BE(0xe000, 2);
      itemHead.writeUInt32BE(item.length, 4);
    } else {
      itemHead.writeUInt16LE(0xfffe, 0);
      itemHead.writeUInt16LE(0xe000, 2);
      itemHead.writeUInt32LE(item.length, 4);
    }
    els.push({ group: 0x0028, element: 0x3010, vr: 'SQ', value: Buffer.concat([itemHead, item]) });
  }

  const metaBody = encode(
    [
      { group: 0x0002, element: 0x0001, vr: 'OB', value: Buffer.from([0, 1]) },
      { group: 0x0002, element: 0x0002, vr: 'UI', value: text('UI', '1.2.840.10008.5.1.4.1.1.1.1') },
      { group: 0x0002, element: 0x0003, vr: 'UI', value: text('UI', '2.25.1234567890') },
      { group: 0x0002, element: 0x0010, vr: 'UI', value: text('UI', UIDS[syntax]) },
      { group: 0x0002, element: 0x0012, vr: 'UI', value: text('UI', '2.25.42') },
    ],
    true,
    false,
  );
  const meta = Buffer.concat([
    encode([{ group: 0x0002, element: 0x0000, vr: 'UL', value: ul(metaBody.length) }], true, false),
    metaBody,
  ]);
  const preamble = Buffer.alloc(128);
  spec.preamble?.copy(preamble, 0, 0, 128);
  const dataset = encode(els, explicit, be);
  return Buffer.concat([
    preamble,
    Buffer.from('DICM', 'latin1'),
    meta,
    syntax === 'deflated' ? deflateRawSync(dataset) : dataset,
  ]);
}
