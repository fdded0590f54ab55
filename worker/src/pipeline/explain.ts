import sharp from 'sharp';
import { colourMap, overlayAlpha } from '@contracts/heatmap-look.js';
import { blendHeatmap, type GrayFilm, type OverlayLut } from './blend-heatmap.js';
import { decodeImage } from './decode.js';
import { toGray } from './preprocess.js';
import type { Heatmap } from './types.js';

// The look lives in contracts/ so the viewer's legend draws the same scale.
export { colourMap, MAX_ALPHA, overlayAlpha } from '@contracts/heatmap-look.js';

export type { GrayFilm } from './blend-heatmap.js';

/*
 * The overlay is stored once and downloaded by the viewer and every export, so it is a PNG at
 * the stored image's size. Encoder settings by measurement (3 MP film, sharp 0.35, this 2-core
 * machine): zlib level 1 without adaptive filtering 26 ms and 1.7 MB; the default (level 6)
 * 124 ms; adaptive filtering at any level 100-230 ms for a few per cent smaller files.
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

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
  return sharp(rgb, { raw: { width: film.width, height: film.height, channels: 3 } })
    .png(PNG_OPTIONS)
    .toBuffer();
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
