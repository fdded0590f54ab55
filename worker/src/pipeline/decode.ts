import sharp from 'sharp';

/** Interleaved 8-bit pixels as decoded, before any gray conversion. */
export interface DecodedImage {
  width: number;
  height: number;
  channels: number;
  data: Uint8Array;
}

export type DecodeResult = { ok: true; image: DecodedImage } | { ok: false; error: string };

// Large enough for any radiograph export, small enough that a decompression bomb is refused.
const MAX_PIXELS = 120_000_000;

/**
 * Decodes JPEG, PNG, WebP, TIFF, GIF, AVIF… with sharp, applying the EXIF orientation.
 * Never throws for bad input: an undecodable buffer is a refusal, not a crash.
 */
export async function decodeImage(buf: Buffer): Promise<DecodeResult> {
  try {
    const { data, info } = await sharp(buf, { failOn: 'error', limitInputPixels: MAX_PIXELS, pages: 1 })
      .rotate()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (!info.width || !info.height) return { ok: false, error: 'empty image' };
    return { ok: true, image: { width: info.width, height: info.height, channels: info.channels, data: new Uint8Array(data.buffer, data.byteOffset, data.length) } };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
