import sharp from 'sharp';
import { blendHeatmap, type GrayFilm, type OverlayLut } from './blend-heatmap.js';
import { decodeImage } from './decode.js';
import { toGray } from './preprocess.js';
import type { Heatmap } from './types.js';

export type { GrayFilm } from './blend-heatmap.js';

/** Heat at full strength covers the film at this opacity; cold regions leave it readable. */
export const MAX_ALPHA = 0.55;
/** Heat below this level is not drawn at all. */
const DRAW_FROM = 0.2;

/*
 * The overlay is stored once and downloaded by the viewer and every export, so it is a PNG at
 * the stored image's size. Encoder settings by measurement (3 MP film, sharp 0.35, this 2-core
 * machine): zlib level 1 without adaptive filtering 26 ms and 1.7 MB; the default (level 6)
 * 124 ms; adaptive filtering at any level 100-230 ms for a few per cent smaller files.
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

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

/** The colour map and opacity sampled at 256 heat levels: the renderer's only source of the look. */
export const OVERLAY_LUT: OverlayLut = (() => {
  const rgb = new Uint8Array(256 * 3);
  const alpha = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    rgb.set(colourMap(i / 255), i * 3);
    alpha[i] = Math.round(overlayAlpha(i / 255) * 256);
  }
  return { rgb, alpha };
})();

/** The film (8-bit luma at the stored image's size) with the heatmap blended on top, as a PNG. */
export function renderOverlay(film: GrayFilm, heatmap: Heatmap): Promise<Buffer> {
  const rgb = blendHeatmap(film, heatmap, OVERLAY_LUT);
  return sharp(rgb, { raw: { width: film.width, height: film.height, channels: 3 } }).png(PNG_OPTIONS).toBuffer();
}

/**
 * The same from the stored image's bytes, for callers without the decoded film (the worker's
 * pipeline hands its film over and skips this second decode).
 */
export async function renderHeatmapOverlay(image: Buffer, heatmap: Heatmap): Promise<Buffer> {
  const decoded = await decodeImage(image);
  if (!decoded.ok) throw new Error('overlay: image could not be decoded');
  const { width, height } = decoded.image;
  return renderOverlay({ width, height, data: toGray(decoded.image) }, heatmap);
}
