import { uploadDir, type TBaseConfig } from '@contracts/config/base-config.js';
import type { ImageStore } from '@contracts/image-store.js';
import { LocalImageStore } from './local-image-store.js';

/** S3 when S3_ENDPOINT is set (see s3-image-store.ts), else the local upload directory. */
export async function createImageStore(config: TBaseConfig): Promise<ImageStore> {
  if (config.S3_ENDPOINT) {
    const { S3ImageStore } = await import('./s3-image-store.js');
    return new S3ImageStore(config);
  }
  return new LocalImageStore(uploadDir(config));
}
