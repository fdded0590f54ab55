import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { writeDicom } from './write-dicom.js';

/**
 * The four hostile DICOM files of the second outside scan (issue 23, N1), built in code: each is
 * small on the wire and asks the decoder for far more time or memory than its size suggests.
 */
export const HOSTILE_SIDE = 7000;
const MiB = 1024 * 1024;

const u16 = (v: number) => Buffer.from([v >> 8, v & 0xff]);
const u32 = (v: number) => Buffer.from([(v >>> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff]);
const marker = (code: number, body: Buffer) => Buffer.concat([u16(code), u16(body.length + 2), body]);

/**
 * A JPEG 2000 codestream of a few dozen bytes declaring side×side: one tile, five wavelet levels,
 * one layer, and an empty packet (a single 0 byte) per resolution. Valid, so the decoder does the
 * full inverse wavelet transform over the declared size.
 */
export function emptyJ2kCodestream(side: number, bits: number): Buffer {
  const levels = 5;
  const siz = Buffer.concat([
    u16(0), // capabilities
    u32(side), // Xsiz
    u32(side), // Ysiz
    u32(0),
    u32(0), // image offset
    u32(side),
    u32(side), // one tile the size of the image
    u32(0),
    u32(0), // tile offset
    u16(1), // one component
    Buffer.from([bits - 1, 1, 1]), // unsigned, no subsampling
  ]);
  // Scod 0, LRCP, 1 layer, no MCT; 5 levels, 64×64 code blocks, default style, 5/3 reversible.
  const cod = Buffer.from([0, 0, 0, 1, 0, levels, 4, 4, 0, 1]);
  // No quantisation (reversible): one exponent per subband, 2 guard bits.
  const qcd = Buffer.concat([Buffer.from([0x40]), Buffer.alloc(3 * levels + 1, (bits + 1) << 3)]);
  const packets = Buffer.alloc(levels + 1, 0);
  const tileLength = 12 + 2 + packets.length;
  const sot = marker(0xff90, Buffer.concat([u16(0), u32(tileLength), Buffer.from([0, 1])]));
  return Buffer.concat([
    u16(0xff4f),
    marker(0xff51, siz),
    marker(0xff52, cod),
    marker(0xff5c, qcd),
    sot,
    u16(0xff93),
    packets,
    u16(0xffd9),
  ]);
}

/** File 1: a JPEG 2000 DICOM of a few hundred bytes declaring 7000×7000 (16-bit by default). */
export function hostileJ2kDicom(bitsAllocated: 8 | 16 = 16): Promise<Buffer> {
  const bits = bitsAllocated === 16 ? 12 : 8;
  return writeDicom({
    width: HOSTILE_SIDE,
    height: HOSTILE_SIDE,
    pixels: [],
    bitsAllocated,
    bitsStored: bits,
    syntax: 'jpeg2000',
    frame: emptyJ2kCodestream(HOSTILE_SIDE, bits),
  });
}

/** File 2: RLE Lossless, 7000×7000, 16-bit, ~1.5 MB: every PackBits run at its maximum (128 bytes). */
export function hostileRleDicom(): Promise<Buffer> {
  const pixels = HOSTILE_SIDE * HOSTILE_SIDE;
  const segment = () => {
    const runs = Math.ceil(pixels / 128);
    const seg = Buffer.alloc(runs * 2);
    for (let r = 0; r < runs; r++) {
      const count = Math.min(128, pixels - r * 128);
      seg[r * 2] = 257 - count; // a replicate run of `count` bytes (count >= 2 here)
      seg[r * 2 + 1] = 0x40;
    }
    return seg;
  };
  const high = segment();
  const low = segment();
  const header = Buffer.alloc(64);
  header.writeUInt32LE(2, 0);
  header.writeUInt32LE(64, 4);
  header.writeUInt32LE(64 + high.length, 8);
  return writeDicom({
    width: HOSTILE_SIDE,
    height: HOSTILE_SIDE,
    pixels: [],
    bitsAllocated: 16,
    bitsStored: 16,
    syntax: 'rle',
    frame: Buffer.concat([header, high, low]),
  });
}

/**
 * Files 3 and 4: Deflated Explicit VR Little Endian declaring a 4096×4096 16-bit image (32 MB,
 * within every limit) whose Pixel Data element is `inflatedMiB` of zeros: ~1 KB per MiB on the
 * wire. The zeros are one deflate block of 1 MiB repeated (each block starts from an empty
 * history, so the copies are independent), so building a 1 GiB bomb costs no 1 GiB buffer.
 */
export async function deflateBombDicom(inflatedMiB: number): Promise<Buffer> {
  const side = 4096;
  const template = await writeDicom({ width: side, height: side, pixels: [], syntax: 'deflated' });
  const metaLength = template.readUInt32LE(140);
  const start = 144 + metaLength;
  const dataSet = inflateRawSync(template.subarray(start));
  // Pixel Data sorts last: its 4-byte length (now 0) ends the data set.
  dataSet.writeUInt32LE(inflatedMiB * MiB, dataSet.length - 4);
  const head = deflateRawSync(dataSet, { finishFlush: constants.Z_SYNC_FLUSH });
  const zeros = deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([template.subarray(0, start), head, ...Array<Buffer>(inflatedMiB).fill(zeros), last]);
}
