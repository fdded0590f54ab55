import { createRequire } from 'node:module';

/**
 * The maintained WebAssembly builds of OpenJPEG (JPEG 2000), OpenJPH (HTJ2K) and CharLS
 * (JPEG-LS) from the Cornerstone project. The .wasm files ship inside the packages and are read
 * from disk, so nothing is fetched at run time. Each module is compiled once, on first use.
 */
export interface TFrameInfo {
  width: number;
  height: number;
  bitsPerSample: number;
  componentCount: number;
  isSigned?: boolean;
}

/** The decoder objects all three builds expose (embind classes: call delete() when done). */
export interface TWasmDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  getDecodedBuffer(): Uint8Array;
  readHeader?(): void;
  decode(): void;
  getFrameInfo(): TFrameInfo;
  delete(): void;
}

export type TCodec = 'jpeg2000' | 'htj2k' | 'jpeg-ls';

interface TModule {
  [decoder: string]: new () => TWasmDecoder;
}
type TFactory = (options: { print: (s: string) => void; printErr: (s: string) => void }) => Promise<TModule>;

const SOURCES: Record<TCodec, { entry: string; decoder: string }> = {
  // The decode-only builds where the package has one: smaller, and no encoder on the server.
  jpeg2000: { entry: '@cornerstonejs/codec-openjpeg/decodewasmjs', decoder: 'J2KDecoder' },
  htj2k: { entry: '@cornerstonejs/codec-openjph/wasmjs', decoder: 'HTJ2KDecoder' },
  'jpeg-ls': { entry: '@cornerstonejs/codec-charls/decodewasmjs', decoder: 'JpegLSDecoder' },
};

const require = createRequire(import.meta.url);
const loaded = new Map<TCodec, Promise<TModule>>();

/** A fresh decoder; OpenJPEG's progress chatter on stdout is dropped (it is not an error channel). */
export async function createDecoder(codec: TCodec): Promise<TWasmDecoder> {
  let mod = loaded.get(codec);
  if (!mod) {
    const factory = require(SOURCES[codec].entry) as TFactory;
    mod = factory({ print: () => undefined, printErr: () => undefined });
    loaded.set(codec, mod);
  }
  const Decoder = (await mod)[SOURCES[codec].decoder];
  if (!Decoder) throw new Error(`${SOURCES[codec].entry} has no ${SOURCES[codec].decoder}`);
  return new Decoder();
}

/**
 * Forgets a module after a decoder failed inside it: an Emscripten abort (out of memory on a
 * hostile stream) leaves the instance unusable, and the next file should get a fresh one.
 */
export function discardCodec(codec: TCodec): void {
  loaded.delete(codec);
}
