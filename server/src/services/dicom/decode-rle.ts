/**
 * DICOM RLE Lossless (PS3.5 Annex G): a 64-byte header (segment count, then up to 15 segment
 * offsets), then one PackBits segment per byte plane, most significant byte first. Only
 * grayscale (1 sample) with 8 or 16 bits allocated is read. Returns the raw values, row-major.
 */
export function decodeRle(frame: Uint8Array, pixels: number, bitsAllocated: number): Uint8Array | Uint16Array | null {
  if (frame.length < 64) return null;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.length);
  const segments = view.getUint32(0, true);
  const expected = bitsAllocated / 8;
  if (segments !== expected) return null;
  const planes: Uint8Array[] = [];
  for (let s = 0; s < segments; s++) {
    const start = view.getUint32(4 + s * 4, true);
    const end = s + 1 < segments ? view.getUint32(8 + s * 4, true) : frame.length;
    if (start < 64 || end > frame.length || end < start) return null;
    const plane = unpackBits(frame.subarray(start, end), pixels);
    if (!plane) return null;
    planes.push(plane);
  }
  const [high, low] = planes;
  if (!high) return null;
  if (!low) return high;
  const out = new Uint16Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = ((high[i] ?? 0) << 8) | (low[i] ?? 0);
  return out;
}

/** PackBits; null when the segment is shorter than the image (a truncated or corrupt file). */
function unpackBits(src: Uint8Array, length: number): Uint8Array | null {
  const out = new Uint8Array(length);
  let o = 0;
  for (let i = 0; i < src.length && o < length;) {
    const n = ((src[i++] ?? 0) << 24) >> 24; // signed byte
    if (n >= 0) {
      const count = Math.min(n + 1, length - o, src.length - i);
      out.set(src.subarray(i, i + count), o);
      o += count;
      i += n + 1;
    } else if (n !== -128) {
      const count = Math.min(1 - n, length - o);
      out.fill(src[i++] ?? 0, o, o + count);
      o += count;
    }
  }
  return o === length ? out : null;
}
