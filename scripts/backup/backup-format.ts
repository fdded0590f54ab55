import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { z } from 'zod';

/** Identifies our backups; bump FORMAT_VERSION when the layout below changes. */
export const FORMAT = 'chest-doctor-ai-backup';
export const FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
/** sha256 of manifest.json, so an edited manifest is caught like an edited dump. */
export const MANIFEST_HASH_FILE = 'manifest.sha256';
export const TABLES_DIR = 'tables';
export const FILES_DIR = 'files';

const ZSha = z.string().regex(/^[0-9a-f]{64}$/);
// Storage keys are ours (img/ab/cd/<sha>); anything else in a manifest is tampering, and a key
// with '..' or a leading '/' would let a crafted backup write outside the restore directory.
export const ZStorageKey = z
  .string()
  .max(300)
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/)
  .refine((k) => !k.split('/').includes('..'), 'invalid storage key');

export const ZManifest = z.object({
  format: z.literal(FORMAT),
  version: z.literal(FORMAT_VERSION),
  createdAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
  /** Applied drizzle migrations (hashes) of the source, oldest first. */
  migrations: z.array(z.string()),
  /** In foreign-key order: restoring in this order never references a row not yet inserted. */
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      file: z.string().regex(/^tables\/[a-z_][a-z0-9_]*\.ndjson$/),
      rows: z.number().int().min(0),
      sha256: ZSha,
      columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)),
    }),
  ),
  files: z.array(z.object({ key: ZStorageKey, bytes: z.number().int().min(0), sha256: ZSha })),
  /** Storage keys referenced by the database whose bytes were missing when the backup ran. */
  missingFiles: z.array(z.string()),
});
export type TManifest = z.infer<typeof ZManifest>;

/** A backup that cannot be trusted: the restore stops before writing anything. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export function sha256Of(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256OfFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

export function isArchivePath(p: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(p);
}
