/**
 * Turns stored pixel values into the 8-bit grayscale a clinician would see, following the
 * DICOM grayscale pipeline (PS3.3 C.11): Modality LUT (rescale slope/intercept), then the VOI
 * transform (window centre/width or a VOI LUT), then MONOCHROME1 inversion.
 */

export type TVoi =
  | { kind: 'window'; center: number; width: number; fn: 'LINEAR' | 'LINEAR_EXACT' | 'SIGMOID' }
  | { kind: 'lut'; firstMapped: number; bits: number; data: ArrayLike<number> }
  | { kind: 'minmax' };

export interface TRenderOptions {
  slope: number;
  intercept: number;
  voi: TVoi;
  /** MONOCHROME1: low values are bright. */
  invert: boolean;
}

/** A 0..1 mapping for one modality value; lo/hi are the image's modality range. */
function voiFunction(voi: TVoi, lo: number, hi: number): (x: number) => number {
  switch (voi.kind) {
    case 'window': {
      const { center: c, width: w } = voi;
      if (voi.fn === 'SIGMOID') return (x) => 1 / (1 + Math.exp((-4 * (x - c)) / w));
      if (voi.fn === 'LINEAR_EXACT') return (x) => (x <= c - w / 2 ? 0 : x > c + w / 2 ? 1 : (x - c) / w + 0.5);
      // LINEAR as the standard words it: width 1 is a threshold at c - 0.5.
      const below = c - 0.5 - (w - 1) / 2;
      const above = c - 0.5 + (w - 1) / 2;
      return (x) => (x <= below ? 0 : x > above ? 1 : w <= 1 ? 1 : (x - (c - 0.5)) / (w - 1) + 0.5);
    }
    case 'lut': {
      const n = voi.data.length;
      const max = 2 ** voi.bits - 1;
      return (x) => {
        const i = Math.min(n - 1, Math.max(0, Math.round(x) - voi.firstMapped));
        return (voi.data[i] ?? 0) / max;
      };
    }
    case 'minmax': {
      const span = hi - lo;
      return (x) => (span > 0 ? (x - lo) / span : 0);
    }
  }
}

/**
 * Stored values are integers in a bounded range (at most 16 bits), so the whole chain is
 * computed once per distinct value into a lookup table, then applied per pixel: a 2048² film
 * costs one table lookup per pixel instead of the full arithmetic.
 */
export function renderGray(stored: ArrayLike<number>, opts: TRenderOptions): Uint8Array {
  const n = stored.length;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = stored[i] ?? 0;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (n === 0) return new Uint8Array(0);
  const a = lo * opts.slope + opts.intercept;
  const b = hi * opts.slope + opts.intercept;
  const f = voiFunction(opts.voi, Math.min(a, b), Math.max(a, b));
  const lut = new Uint8Array(hi - lo + 1);
  for (let v = lo; v <= hi; v++) {
    const y = Math.min(1, Math.max(0, f(v * opts.slope + opts.intercept)));
    lut[v - lo] = Math.round((opts.invert ? 1 - y : y) * 255);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = lut[(stored[i] ?? 0) - lo] ?? 0;
  return out;
}
