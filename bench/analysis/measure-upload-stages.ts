import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { LocalImageStore } from '@common/storage/local-image-store.js';
import { decodeUpload } from '../../server/src/services/analysis/decode-upload.js';

const time = async (f: () => Promise<unknown> | unknown): Promise<number> => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

/**
 * The server's upload stages that leave no timestamp, measured in this process on the same
 * images with the server's own functions: decodeUpload (header check, decode, re-encode),
 * split into its decode and re-encode by a decode-only run; the content hash; the local image
 * store's write. Also the re-encode as it was before (with Huffman optimisation).
 */
export async function measureUploadStages(images: { data: Buffer }[]): Promise<Record<string, number[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'cxr-bench-store-'));
  const store = new LocalImageStore(dir);
  const out: Record<string, number[]> = {};
  const push = (k: string, v: number) => (out[k] ??= []).push(v);
  try {
    for (const [i, { data }] of images.entries()) {
      const input = () => sharp(data, { failOn: 'error', pages: 1 });
      const header = await time(() => input().metadata());
      const decode = await time(() => input().rotate().raw().toBuffer());
      let cleaned: Buffer = data;
      const whole = await time(async () => void (cleaned = (await decodeUpload(data)).data));
      push('upload: header check', header);
      push('upload: decode', decode);
      push('upload: re-encode (decodeUpload - decode - header)', Math.max(0, whole - decode - header));
      push('upload: sha256', await time(() => createHash('sha256').update(cleaned).digest('hex')));
      push('upload: storage write (local)', await time(() => store.put(`bench/${i}`, cleaned)));
      push(
        'before: re-encode with Huffman optimisation',
        Math.max(
          0,
          (await time(() => input().rotate().jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer())) - decode,
        ),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
