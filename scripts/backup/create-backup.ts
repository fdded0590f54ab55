import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TDb } from '../../server/src/db/client.js';
import type { ImageStore } from '@contracts/image-store.js';
import { createArchive } from './archive.js';
import {
  FILES_DIR,
  FORMAT,
  FORMAT_VERSION,
  isArchivePath,
  MANIFEST_FILE,
  MANIFEST_HASH_FILE,
  sha256Of,
  TABLES_DIR,
  ZStorageKey,
  type TManifest,
} from './backup-format.js';
import { appliedMigrations, ident, queryRows, tablesInFkOrder, type TTableInfo } from './db-catalog.js';

export interface CreateBackupOptions {
  db: TDb;
  dbKind: 'pglite' | 'postgres';
  images: ImageStore;
  /** A directory to create, or a path ending in .tar.gz / .tgz for a single archive. */
  out: string;
  log?: (line: string) => void;
}

const BATCH = 1000;

/** Dumps one table as NDJSON (row_to_json keeps exact timestamps and jsonb); returns rows + hash. */
async function dumpTable(db: TDb, t: TTableInfo, path: string): Promise<{ rows: number; sha256: string }> {
  const out = createWriteStream(path, { mode: 0o600 });
  const order = t.primaryKey.length ? t.primaryKey : t.columns;
  const orderBy = sql.join(
    order.map((c) => ident(c)),
    sql`, `,
  );
  const hash = createHash('sha256');
  let rows = 0;
  for (let offset = 0; ; offset += BATCH) {
    const batch = await queryRows<{ j: string }>(
      db,
      sql`
      select row_to_json(t)::text as j from ${ident(t.name)} t order by ${orderBy} limit ${BATCH} offset ${offset}`,
    );
    for (const r of batch) {
      const line = Buffer.from(`${r.j}\n`, 'utf8');
      hash.update(line);
      if (!out.write(line)) await once(out, 'drain');
    }
    rows += batch.length;
    if (batch.length < BATCH) break;
  }
  out.end();
  await once(out, 'finish');
  return { rows, sha256: hash.digest('hex') };
}

/**
 * Writes a logical backup: every table in foreign-key order plus every stored image, with a
 * manifest of row counts and sha256 hashes. On PostgreSQL the dump runs in one repeatable-read
 * transaction, so it is a consistent snapshot even while the app runs.
 */
export async function createBackup(opts: CreateBackupOptions): Promise<TManifest> {
  const log = opts.log ?? (() => undefined);
  const archive = isArchivePath(opts.out);
  const target = resolve(opts.out);
  const dir = archive ? await mkdtemp(join(dirname(target), '.cxr-backup-')) : target;
  try {
    await mkdir(join(dir, TABLES_DIR), { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    const manifest = await opts.db.transaction(
      async (tx) => {
        const db = tx as unknown as TDb;
        const tables = await tablesInFkOrder(db);
        const m: TManifest = {
          format: FORMAT,
          version: FORMAT_VERSION,
          createdAt: new Date().toISOString(),
          database: opts.dbKind,
          migrations: await appliedMigrations(db),
          tables: [],
          files: [],
          missingFiles: [],
        };
        for (const t of tables) {
          const file = `${TABLES_DIR}/${t.name}.ndjson`;
          const { rows, sha256 } = await dumpTable(db, t, join(dir, file));
          m.tables.push({ name: t.name, file, rows, sha256, columns: t.columns });
          log(`  ${t.name}: ${rows} rows`);
        }
        const keys = await queryRows<{ k: string }>(
          db,
          sql`select distinct storage_key as k from stored_images order by 1`,
        );
        for (const { k } of keys) {
          const key = ZStorageKey.parse(k);
          const data = await opts.images.get(key).catch(() => null);
          if (!data) {
            m.missingFiles.push(key);
            continue;
          }
          const path = join(dir, FILES_DIR, key);
          await mkdir(dirname(path), { recursive: true, mode: 0o700 });
          await writeFile(path, data, { mode: 0o600 });
          m.files.push({ key, bytes: data.length, sha256: sha256Of(data) });
        }
        log(`  images: ${m.files.length} files`);
        return m;
      },
      opts.dbKind === 'postgres' ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : undefined,
    );
    if (manifest.missingFiles.length) {
      log(
        `WARNING: ${manifest.missingFiles.length} image(s) referenced by the database were missing from storage (listed in the manifest)`,
      );
    }
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    await writeFile(join(dir, MANIFEST_FILE), text, { mode: 0o600 });
    await writeFile(join(dir, MANIFEST_HASH_FILE), `${sha256Of(text)}\n`, { mode: 0o600 });
    if (archive) await createArchive(dir, target);
    return manifest;
  } finally {
    if (archive) await rm(dir, { recursive: true, force: true });
  }
}
