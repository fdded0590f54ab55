/*
 * Bilinear sampling along one axis, align-corners false (cell k's centre is at k + 0.5): every
 * resampling of a heatmap (the lung-confined maps, the overlay) takes its taps from here.
 */

/** For each sample: the two cells it lies between and the weight of the second. */
export interface BilinearTaps {
  i0: Int32Array;
  i1: Int32Array;
  a: Float64Array;
}

/** Taps into a grid of n cells at `positions` given in cell units; positions outside are clamped to the edge cells. */
export function bilinearTaps(positions: ArrayLike<number>, n: number): BilinearTaps {
  const count = positions.length;
  const t = { i0: new Int32Array(count), i1: new Int32Array(count), a: new Float64Array(count) };
  for (let k = 0; k < count; k++) {
    const f = Math.min(Math.max(positions[k]! - 0.5, 0), n - 1);
    const i0 = Math.floor(f);
    t.i0[k] = i0;
    t.i1[k] = Math.min(i0 + 1, n - 1);
    t.a[k] = f - i0;
  }
  return t;
}

/** The centres of `out` cells spread evenly over a grid of n cells, in its cell units. */
export function cellCentres(out: number, n: number): Float64Array {
  const scale = n / out;
  const pos = new Float64Array(out);
  for (let x = 0; x < out; x++) pos[x] = (x + 0.5) * scale;
  return pos;
}
