// Its own module: read-frame.ts hands compressed frames to decode-wasm-frame.ts, which checks them against this.
export interface TPixelLayout {
  rows: number;
  columns: number;
  bitsAllocated: number;
  bitsStored: number;
  /** 1: two's complement signed values. */
  pixelRepresentation: number;
}
