/**
 * A minimal JPEG lossless encoder (ITU T.81 process 14, one component, predictor 1, one fixed
 * Huffman table), written for the tests only: no npm package encodes lossless JPEG, and the
 * DICOM tests need files in that transfer syntax to prove the decoder reads them.
 */
export function encodeJpegLossless(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  precision: number,
): Buffer {
  const out: number[] = [];
  const u16 = (v: number) => out.push((v >> 8) & 0xff, v & 0xff);
  u16(0xffd8); // SOI
  u16(0xffc3);
  u16(11);
  out.push(precision);
  u16(height);
  u16(width);
  out.push(1, 1, 0x11, 0); // SOF3
  // DHT: the 17 difference categories (SSSS 0..16), each a 5-bit code 00000, 00001, …
  const counts = new Array<number>(16).fill(0);
  counts[4] = 17;
  u16(0xffc4);
  u16(2 + 1 + 16 + 17);
  out.push(0x00, ...counts);
  for (let s = 0; s <= 16; s++) out.push(s);
  u16(0xffda);
  u16(8);
  out.push(1, 1, 0x00, 1, 0, 0); // SOS: predictor 1, point transform 0

  let acc = 0;
  let nbits = 0;
  const emit = (value: number, bits: number) => {
    for (let b = bits - 1; b >= 0; b--) {
      acc = (acc << 1) | ((value >> b) & 1);
      if (++nbits === 8) {
        out.push(acc);
        if (acc === 0xff) out.push(0x00); // byte stuffing
        acc = 0;
        nbits = 0;
      }
    }
  };
  const at = (x: number, y: number) => pixels[y * width + x] ?? 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const pred = x === 0 && y === 0 ? 1 << (precision - 1) : x === 0 ? at(0, y - 1) : at(x - 1, y);
      const diff = at(x, y) - pred;
      const ssss = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      emit(ssss, 5);
      if (ssss > 0 && ssss < 16) emit(diff > 0 ? diff : diff - 1 + (1 << ssss), ssss);
    }
  }
  if (nbits > 0) emit(0x7f, 8 - nbits); // pad the last byte with ones
  u16(0xffd9); // EOI
  return Buffer.from(out);
}
