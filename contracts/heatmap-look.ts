/**
 * How the heatmap overlay looks: the worker paints the overlay with these functions and the
 * viewer's legend draws its scale from them, so the legend cannot drift from the picture.
 * Heat values are 0..1, min-max scaled over the lungs of each film (relative, not a probability).
 */

/** Heat at full strength covers the film at this opacity; cold regions leave it readable. */
export const MAX_ALPHA = 0.55;
/** Heat below this level is not drawn at all. */
export const DRAW_FROM = 0.2;

/** 'Turbo'-like colour map (Google, Apache-2.0 polynomial approximation) for v in 0..1. */
export function colourMap(v: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, v));
  const r = 0.1357 + x * (4.5974 - x * (42.3277 - x * (130.5887 - x * (150.5666 - x * 58.1375))));
  const g = 0.0914 + x * (2.1856 + x * (4.8052 - x * (14.0195 - x * (4.2109 + x * 2.7747))));
  const b = 0.1067 + x * (12.5925 - x * (60.1097 - x * (109.0745 - x * (88.5066 - x * 26.8183))));
  const c = (u: number): number => Math.round(255 * Math.min(1, Math.max(0, u)));
  return [c(r), c(g), c(b)];
}

/** Opacity for heat v: 0 up to DRAW_FROM, then growing linearly to MAX_ALPHA at 1. */
export function overlayAlpha(v: number): number {
  return MAX_ALPHA * Math.min(1, Math.max(0, (v - DRAW_FROM) / (1 - DRAW_FROM)));
}
