import type { Mask } from './anatomy.js';

/*
 * Outlines of a binary mask as SVG path data in the unit square (viewBox "0 0 1 1",
 * preserveAspectRatio "none"): marching squares over the cell centres, the mask padded with
 * an empty border so shapes that touch the edge are closed. The segments are chained into
 * closed loops ("M x y L x y … Z") without their collinear middle points, which keeps a lung
 * outline to a few kilobytes.
 */

type Edge = 0 | 1 | 2 | 3; // top, right, bottom, left of the 2x2 quad of cell centres

// Index = tl*8 + tr*4 + br*2 + bl; saddles (5, 10) keep the two 'on' corners apart.
const SEGMENTS: readonly (readonly [Edge, Edge])[][] = [
  [],
  [[3, 2]],
  [[2, 1]],
  [[3, 1]],
  [[0, 1]],
  [
    [0, 1],
    [3, 2],
  ],
  [[0, 2]],
  [[0, 3]],
  [[0, 3]],
  [[0, 2]],
  [
    [0, 3],
    [2, 1],
  ],
  [[0, 1]],
  [[3, 1]],
  [[1, 2]],
  [[3, 2]],
  [],
];

/** At most 4 decimals, no trailing zeros. */
export function fmt(v: number): string {
  return String(Number(v.toFixed(4)));
}

/**
 * Segments in half-cell units: the centre of cell (i, j) is (2j + 1, 2i + 1), so every edge
 * midpoint has integer coordinates in 0..2w x 0..2h. Flat [x1, y1, x2, y2, …].
 */
export function maskSegments(mask: Mask): number[] {
  const { width: w, height: h, data } = mask;
  const on = (y: number, x: number): number => (y >= 0 && y < h && x >= 0 && x < w ? data[y * w + x]! : 0);
  const out: number[] = [];
  for (let i = -1; i < h; i++) {
    for (let j = -1; j < w; j++) {
      const idx = on(i, j) * 8 + on(i, j + 1) * 4 + on(i + 1, j + 1) * 2 + on(i + 1, j);
      if (idx === 0 || idx === 15) continue;
      for (const [a, b] of SEGMENTS[idx]!) {
        // top, bottom: x = j + 1; right: j + 1.5; left: j + 0.5 (and likewise for y), doubled
        out.push(
          a === 1 ? 2 * j + 3 : a === 3 ? 2 * j + 1 : 2 * j + 2,
          a === 0 ? 2 * i + 1 : a === 2 ? 2 * i + 3 : 2 * i + 2,
        );
        out.push(
          b === 1 ? 2 * j + 3 : b === 3 ? 2 * j + 1 : 2 * j + 2,
          b === 0 ? 2 * i + 1 : b === 2 ? 2 * i + 3 : 2 * i + 2,
        );
      }
    }
  }
  return out;
}

/** Chains segments into closed loops (every midpoint joins exactly two segments) of [x, y] points. */
function loops(segs: number[], stride: number, points: number): [number, number][][] {
  const n = segs.length / 4;
  // the two segments at each point
  const first = new Int32Array(points).fill(-1);
  const second = new Int32Array(points).fill(-1);
  for (let s = 0; s < n; s++) {
    for (const k of [segs[4 * s + 1]! * stride + segs[4 * s]!, segs[4 * s + 3]! * stride + segs[4 * s + 2]!]) {
      if (first[k] === -1) first[k] = s;
      else second[k] = s;
    }
  }
  const used = new Uint8Array(n);
  const out: [number, number][][] = [];
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    const x1 = segs[4 * s0]!;
    const y1 = segs[4 * s0 + 1]!;
    const pts: [number, number][] = [[x1, y1]];
    let cx = segs[4 * s0 + 2]!;
    let cy = segs[4 * s0 + 3]!;
    while (cx !== x1 || cy !== y1) {
      pts.push([cx, cy]);
      const k = cy * stride + cx;
      const next = !used[first[k]!] ? first[k]! : second[k]!;
      if (next === -1 || used[next]) break;
      used[next] = 1;
      const o = 4 * next;
      const fromStart = segs[o] === cx && segs[o + 1] === cy;
      cx = segs[o + (fromStart ? 2 : 0)]!;
      cy = segs[o + (fromStart ? 3 : 1)]!;
    }
    out.push(pts);
  }
  return out;
}

/** Drops the points of a closed loop that lie on the straight line through their neighbours. */
function corners(pts: [number, number][]): [number, number][] {
  const n = pts.length;
  if (n < 3) return pts;
  return pts.filter((p, i) => {
    const a = pts[(i + n - 1) % n]!;
    const b = pts[(i + 1) % n]!;
    return (p[0] - a[0]) * (b[1] - a[1]) - (p[1] - a[1]) * (b[0] - a[0]) !== 0;
  });
}

export function maskContour(mask: Mask): string {
  const sx = 2 * mask.width;
  const sy = 2 * mask.height;
  return loops(maskSegments(mask), sx + 1, (sx + 1) * (sy + 1))
    .map(
      (loop) =>
        corners(loop)
          .map(([x, y], k) => `${k === 0 ? 'M' : 'L'} ${fmt(x / sx)} ${fmt(y / sy)}`)
          .join(' ') + ' Z',
    )
    .join(' ');
}
