/** How the pixel data of a transfer syntax is stored, and therefore which decoder reads it. */
export type TPixelEncoding =
  'native-le' | 'native-be' | 'jpeg-baseline' | 'jpeg-lossless' | 'rle' | 'jpeg2000' | 'htj2k' | 'jpeg-ls';

export interface TTransferSyntax {
  uid: string;
  name: string;
  encoding: TPixelEncoding;
}

/** Every transfer syntax we decode. Anything else is refused with its name (see the docs). */
export const SUPPORTED_TRANSFER_SYNTAXES: readonly TTransferSyntax[] = [
  { uid: '1.2.840.10008.1.2', name: 'Implicit VR Little Endian', encoding: 'native-le' },
  { uid: '1.2.840.10008.1.2.1', name: 'Explicit VR Little Endian', encoding: 'native-le' },
  // dicom-parser inflates the data set itself; the pixels are then native little endian.
  { uid: '1.2.840.10008.1.2.1.99', name: 'Deflated Explicit VR Little Endian', encoding: 'native-le' },
  { uid: '1.2.840.10008.1.2.2', name: 'Explicit VR Big Endian (retired)', encoding: 'native-be' },
  { uid: '1.2.840.10008.1.2.4.50', name: 'JPEG Baseline (Process 1)', encoding: 'jpeg-baseline' },
  { uid: '1.2.840.10008.1.2.4.57', name: 'JPEG Lossless, Non-Hierarchical (Process 14)', encoding: 'jpeg-lossless' },
  {
    uid: '1.2.840.10008.1.2.4.70',
    name: 'JPEG Lossless, Non-Hierarchical, First-Order Prediction',
    encoding: 'jpeg-lossless',
  },
  { uid: '1.2.840.10008.1.2.5', name: 'RLE Lossless', encoding: 'rle' },
  // Through the WebAssembly codecs in wasm-codecs.ts (OpenJPEG, OpenJPH, CharLS).
  { uid: '1.2.840.10008.1.2.4.80', name: 'JPEG-LS Lossless', encoding: 'jpeg-ls' },
  { uid: '1.2.840.10008.1.2.4.81', name: 'JPEG-LS Near-Lossless', encoding: 'jpeg-ls' },
  { uid: '1.2.840.10008.1.2.4.90', name: 'JPEG 2000 Lossless', encoding: 'jpeg2000' },
  { uid: '1.2.840.10008.1.2.4.91', name: 'JPEG 2000', encoding: 'jpeg2000' },
  { uid: '1.2.840.10008.1.2.4.201', name: 'High-Throughput JPEG 2000 Lossless', encoding: 'htj2k' },
  { uid: '1.2.840.10008.1.2.4.202', name: 'High-Throughput JPEG 2000 with RPCL Options Lossless', encoding: 'htj2k' },
  { uid: '1.2.840.10008.1.2.4.203', name: 'High-Throughput JPEG 2000', encoding: 'htj2k' },
];

/** Names of common syntaxes we refuse, so the refusal can say what the file was. */
const KNOWN_UNSUPPORTED: Record<string, string> = {
  '1.2.840.10008.1.2.4.51': 'JPEG Extended (12-bit)',
  '1.2.840.10008.1.2.4.92': 'JPEG 2000 Part 2 Multi-component Lossless',
  '1.2.840.10008.1.2.4.93': 'JPEG 2000 Part 2 Multi-component',
  '1.2.840.10008.1.2.4.100': 'MPEG2 video',
  '1.2.840.10008.1.2.4.102': 'MPEG-4 AVC/H.264 video',
};

export function findTransferSyntax(uid: string): TTransferSyntax | null {
  return SUPPORTED_TRANSFER_SYNTAXES.find((s) => s.uid === uid) ?? null;
}

export function describeTransferSyntax(uid: string): string {
  return findTransferSyntax(uid)?.name ?? KNOWN_UNSUPPORTED[uid] ?? `transfer syntax ${uid}`;
}
