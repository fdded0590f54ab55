import sharp from 'sharp';
import { colourMap, overlayAlpha } from '@contracts/heatmap-look.js';
import { STORED_JPEG_OPTIONS } from '@contracts/stored-jpeg.js';
import { blendHeatmap, type OverlayLut } from './blend-heatmap.js';
import { decodeImage } from './decode-image.js';
import { toGray } from './preprocess.js';
import type { GrayFilm, Heatmap } from './types.js';

// The look lives in contracts/ so the viewer's legend draws the same scale.
export { colourMap, MAX_ALPHA, overlayAlpha } from '@contracts/heatmap-look.js';

/*
 * The overlay, drawn by the worker after the pipeline for the top finding: the film with the
 * heatmap blended on top (blend-heatmap.ts). It is stored once, at the stored image's size, and
 * downloaded by the viewer and every export. It keeps its film's coding: over a film stored as JPEG (a lossy upload) it is a JPEG
 * written like the film (STORED_JPEG_OPTIONS), over anything else (PNG, WebP, DICOM renders) a
 * lossless PNG. Measured on 3 MP overlays (sharp 0.35, this 2-core machine): JPEG 22-27 ms and
 * about 0.25 MB; PNG at zlib level 1 without adaptive filtering 33-51 ms and about 2 MB (the
 * default level 6 took 124 ms; adaptive filtering 100-230 ms for a few per cent smaller files).
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

export type TOverlayCoding = 'image/png' | 'image/jpeg';

/** The overlay's coding for a film stored with this media type. */
export function overlayCodingFor(filmMediaType: string): TOverlayCoding {
  return filmMediaType === 'image/jpeg' ? 'image/jpeg' : 'image/png';
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

/** The film (8-bit luma at the stored image's size) with the heatmap blended on top, as a PNG or a JPEG. */
export function drawOverlay(film: GrayFilm, heatmap: Heatmap, coding: TOverlayCoding = 'image/png'): Promise<Buffer> {
  const rgb = sharp(blendHeatmap(film, heatmap, OVERLAY_LUT), {
    raw: { width: film.width, height: film.height, channels: 3 },
  });
  return (coding === 'image/jpeg' ? rgb.jpeg(STORED_JPEG_OPTIONS) : rgb.png(PNG_OPTIONS)).toBuffer();
}

/**
 * The same from the stored image's bytes, for callers without the decoded film (the worker's
 * pipeline hands its film over and skips this second decode).
 */
export async function drawOverlayOnImage(
  image: Buffer,
  heatmap: Heatmap,
  coding: TOverlayCoding = 'image/png',
): Promise<Buffer> {
  const decoded = await decodeImage(image);
  if (!decoded.ok) throw new Error('overlay: image could not be decoded');
  const { width, height } = decoded.image;
  return drawOverlay({ width, height, data: toGray(decoded.image) }, heatmap, coding);
}
