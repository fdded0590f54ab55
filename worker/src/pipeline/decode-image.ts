import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '@contracts/schemas/analysis.js';

// A worker runs its jobs' decodes itself (WORKER_CONCURRENCY), so one libvips thread per decode
// is enough, and libvips' operation cache would keep the last decoded films (tens of MB each)
// alive between jobs: both bound a job's memory to its own film.
sharp.concurrency(1);
sharp.cache(false);

/** Interleaved 8-bit pixels as decoded, before any gray conversion. */
export interface DecodedImage {
  width: number;
  height: number;
  channels: number;
  data: Uint8Array;
}

export type DecodeResult = { ok: true; image: DecodedImage } | { ok: false; error: string };

// The upload cap, again: an image stored by another path (or before the cap) must not cost more.
const MAX_PIXELS = MAX_IMAGE_PIXELS;

/**
 * Decodes JPEG, PNG, WebP, TIFF, GIF, AVIF… with sharp, applying the EXIF orientation.
 * Never throws for bad input: an undecodable buffer is a refusal, not a crash. Sequential read
 * streams the rows into the output instead of first decoding the whole file into a second copy.
 */
export async function decodeImage(buf: Buffer): Promise<DecodeResult> {
  try {
    const input = () => sharp(buf, { failOn: 'error', limitInputPixels: MAX_PIXELS, pages: 1, sequentialRead: true });
    // sharp hands an 8-bit gray film back as three equal channels by default: three times the
    // memory for the same pixels (toGray gives back exactly those values either way).
    const meta = await input().metadata();
    const gray = meta.channels === 1 && meta.depth === 'uchar' && !meta.hasProfile;
    const oriented = input().rotate();
    const { data, info } = await (gray ? oriented.toColourspace('b-w') : oriented)
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (!info.width || !info.height) return { ok: false, error: 'empty image' };
    return {
      ok: true,
      image: {
        width: info.width,
        height: info.height,
        channels: info.channels,
        data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      },
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
