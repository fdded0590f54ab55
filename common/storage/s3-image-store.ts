import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { TBaseConfig } from '@contracts/config/base-config.js';
import { ImageNotFoundError, type ImageStore } from '@contracts/image-store.js';

/** S3-compatible object storage (MinIO, Ceph, AWS): lets servers and workers share images. */
export class S3ImageStore implements ImageStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: TBaseConfig) {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when S3_ENDPOINT is set');
    this.bucket = config.S3_BUCKET;
    this.client = new S3Client({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      forcePathStyle: true,
      ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
        : {}),
    });
  }

  async put(key: string, data: Buffer, mediaType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentType: mediaType }));
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((err: unknown) => {
        // S3, MinIO and s3rver all name a missing key NoSuchKey; callers only see ImageNotFoundError.
        throw (err as { name?: string }).name === 'NoSuchKey' ? new ImageNotFoundError({ cause: err }) : err;
      });
    if (!out.Body) throw new Error('empty object');
    return Buffer.from(await out.Body.transformToByteArray());
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch {
      return false;
    }
  }
}
