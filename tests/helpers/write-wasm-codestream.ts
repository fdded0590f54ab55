import { createRequire } from 'node:module';

/**
 * Encodes grayscale samples with the encoders of the same WebAssembly codec packages the server
 * decodes with (OpenJPEG, OpenJPH, CharLS): lossless JPEG 2000, HTJ2K and JPEG-LS codestreams
 * for the DICOM tests, written by the tests rather than kept as fixture files.
 */
export type TWasmSyntax = 'jpeg2000' | 'htj2k' | 'jpeg-ls';

interface TEncoder {
  getDecodedBuffer(info: {
    width: number;
    height: number;
    bitsPerSample: number;
    componentCount: number;
    isSigned: boolean;
    isUsingColorTransform: boolean;
  }): Uint8Array;
  encode(): void;
  setDecompositions?(levels: number): void;
  getEncodedBuffer(): Uint8Array;
  delete(): void;
}
type TFactory = (o: { print: () => void; printErr: () => void }) => Promise<Record<string, new () => TEncoder>>;

const ENCODERS: Record<TWasmSyntax, [string, string]> = {
  jpeg2000: ['@cornerstonejs/codec-openjpeg/wasmjs', 'J2KEncoder'],
  htj2k: ['@cornerstonejs/codec-openjph/wasmjs', 'HTJ2KEncoder'],
  'jpeg-ls': ['@cornerstonejs/codec-charls/wasmjs', 'JpegLSEncoder'],
};
const require = createRequire(import.meta.url);

export async function encodeWasmCodestream(
  syntax: TWasmSyntax,
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  bits: number,
  signed = false,
): Promise<Buffer> {
  const [entry, name] = ENCODERS[syntax];
  const mod = await (require(entry) as TFactory)({ print: () => undefined, printErr: () => undefined });
  const Encoder = mod[name];
  if (!Encoder) throw new Error(`${entry} has no ${name}`);
  const encoder = new Encoder();
  try {
    const target = encoder.getDecodedBuffer({
      width,
      height,
      bitsPerSample: bits,
      componentCount: 1,
      isSigned: signed,
      isUsingColorTransform: false,
    });
    const samples =
      bits > 8
        ? signed
          ? Int16Array.from(pixels)
          : Uint16Array.from(pixels)
        : signed
          ? Int8Array.from(pixels)
          : Uint8Array.from(pixels);
    target.set(new Uint8Array(samples.buffer));
    // OpenJPEG refuses more wavelet levels than the smaller side allows (5 by default needs 32 px).
    encoder.setDecompositions?.(Math.max(0, Math.min(5, Math.floor(Math.log2(Math.min(width, height))) - 1)));
    encoder.encode();
    return Buffer.from(encoder.getEncodedBuffer());
  } finally {
    encoder.delete();
  }
}
