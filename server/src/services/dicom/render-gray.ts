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

/** A 0..1 mapping for one modality value. */
function voiFunction(voi: TVoi, values: Float32Array): (x: number) => number {
  switch (voi.kind) {
    case 'window': {
      const { center: c, width: w } = voi;
      if (voi.fn === 'SIGMOID') return (x) => 1 / (1 + Math.exp((-4 * (x - c)) / w));
      if (voi.fn === 'LINEAR_EXACT') return (x) => (x <= c - w / 2 ? 0 : x > c + w / 2 ? 1 : (x - c) / w + 0.5);
      // LINEAR as the standard words it: width 1 is a threshold at c - 0.5.
      const lo = c - 0.5 - (w - 1) / 2;
      const hi = c - 0.5 + (w - 1) / 2;
      return (x) => (x <= lo ? 0 : x > hi ? 1 : w <= 1 ? 1 : (x - (c - 0.5)) / (w - 1) + 0.5);
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
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of values) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      const span = hi - lo;
      return (x) => (span > 0 ? (x - lo) / span : 0);
    }
  }
}

export function renderGray(stored: ArrayLike<number>, opts: TRenderOptions): Uint8Array {
  const n = stored.length;
  // Float32 is ample for 16-bit values after rescale, and halves the memory of a large film.
  const modality = new Float32Array(n);
  for (let i = 0; i < n; i++) modality[i] = (stored[i] ?? 0) * opts.slope + opts.intercept;
  const f = voiFunction(opts.voi, modality);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = Math.min(1, Math.max(0, f(modality[i] ?? 0)));
    out[i] = Math.round((opts.invert ? 1 - v : v) * 255);
  }
  return out;
}
