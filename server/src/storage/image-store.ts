/**
 * Where image bytes live. Keys are content-addressed (sha256) so a re-upload stores nothing new
 * and a key never reveals anything about the patient. Two implementations: a local directory
 * (the embedded default) and S3-compatible object storage, so servers and workers can run on
 * different hosts.
 */
export interface ImageStore {
  put(key: string, data: Buffer, mediaType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** 'ab/cd/abcd…' fan-out keeps directories small; the extension never matters for serving. */
export function contentKey(sha256: string, prefix = 'img'): string {
  return `${prefix}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}
