/**
 * Where image bytes live. Keys are content-addressed (sha256) so a re-upload stores nothing new
 * and a key never reveals anything about the patient. Two implementations (common/storage/): a
 * local directory (the embedded default) and S3-compatible object storage, so servers and
 * workers can run on different hosts.
 */
export interface ImageStore {
  put(key: string, data: Buffer, mediaType: string): Promise<void>;
  /** Throws ImageNotFoundError when nothing is stored under `key`. */
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/**
 * Nothing is stored under a key. Each store translates its own "missing" signal (ENOENT, S3's
 * NoSuchKey) into this, so callers never match backend error codes. The message names no key.
 */
export class ImageNotFoundError extends Error {
  override name = 'ImageNotFoundError';
  constructor(options?: ErrorOptions) {
    super('image not found in storage', options);
  }
}

/** 'ab/cd/abcd…' fan-out keeps directories small; the extension never matters for serving. */
export function contentKey(sha256: string, prefix = 'img'): string {
  return `${prefix}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}
