// jpeg-lossless-decoder-js names a declaration file in package.json that it does not ship.
declare module 'jpeg-lossless-decoder-js' {
  export class Decoder {
    numBytes: number;
    numComp: number;
    xDim: number;
    yDim: number;
    decompress(buffer: ArrayBuffer, offset?: number, length?: number): ArrayBuffer;
  }
}
