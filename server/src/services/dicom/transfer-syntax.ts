/** How the pixel data of a transfer syntax is stored, and therefore which decoder reads it. */
export type TPixelEncoding = 'native-le' | 'native-be' | 'jpeg-baseline' | 'jpeg-lossless' | 'rle';

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
  { uid: '1.2.840.10008.1.2.4.70', name: 'JPEG Lossless, Non-Hierarchical, First-Order Prediction', encoding: 'jpeg-lossless' },
  { uid: '1.2.840.10008.1.2.5', name: 'RLE Lossless', encoding: 'rle' },
];

/** Names of common syntaxes we refuse, so the refusal can say what the file was. */
const KNOWN_UNSUPPORTED: Record<string, string> = {
  '1.2.840.10008.1.2.4.51': 'JPEG Extended (12-bit)',
  '1.2.840.10008.1.2.4.80': 'JPEG-LS Lossless',
  '1.2.840.10008.1.2.4.81': 'JPEG-LS Near-Lossless',
  '1.2.840.10008.1.2.4.90': 'JPEG 2000 Lossless',
  '1.2.840.10008.1.2.4.91': 'JPEG 2000',
  '1.2.840.10008.1.2.4.201': 'High-Throughput JPEG 2000 Lossless',
  '1.2.840.10008.1.2.4.203': 'High-Throughput JPEG 2000',
};

export function findTransferSyntax(uid: string): TTransferSyntax | null {
  return SUPPORTED_TRANSFER_SYNTAXES.find((s) => s.uid === uid) ?? null;
}

export function describeTransferSyntax(uid: string): string {
  return findTransferSyntax(uid)?.name ?? KNOWN_UNSUPPORTED[uid] ?? `transfer syntax ${uid}`;
}
