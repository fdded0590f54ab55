import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TDb } from '../../server/src/db/client.js';
import { recordAudit } from '../../server/src/services/audit/record-audit.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import type { ImageStore } from '@contracts/image-store.js';
import { extractArchive } from './archive.js';
import { BackupError, FILES_DIR, type TManifest } from './backup-format.js';
import { appliedMigrations, ident, queryRows, resetSequences, tablesInFkOrder, type TTableInfo } from './db-catalog.js';
import { ndjsonLines, verifyBackupDir } from './verify-backup.js';

export interface RestoreBackupOptions {
  /** The target database, already migrated to this version's schema (openDatabase does that). */
  db: TDb;
  images: ImageStore;
  /** A backup directory or .tar.gz archive written by createBackup. */
  from: string;
  /** Replace the contents of a non-empty database instead of refusing. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface TRestoreReport {
  manifest: TManifest;
  rows: Record<string, number>;
  files: number;
  auditEntries: number;
}

const BATCH = 500;

/** The target must have every table and column the backup has, and no older schema. */
function checkCompatible(manifest: TManifest, target: TTableInfo[], migrations: string[]): void {
  const unknown = manifest.migrations.filter((m) => !migrations.includes(m));
  if (unknown.length) {
    throw new BackupError(
      `This backup was made by a newer version of Chest Doctor AI (${unknown.length} migration(s) this version does not have). Upgrade, then restore. Nothing was restored.`,
    );
  }
  const byName = new Map(target.map((t) => [t.name, t]));
  for (const t of manifest.tables) {
    const have = byName.get(t.name);
    const missing = have ? t.columns.filter((c) => !have.columns.includes(c)) : [];
    if (!have || missing.length) {
      throw new BackupError(`The backup's table ${t.name} does not fit this database's schema. Nothing was restored.`);
    }
  }
}

async function nonEmptyTables(db: TDb, tables: TTableInfo[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    const [r] = await queryRows<{ n: boolean }>(db, sql`select exists(select 1 from ${ident(t.name)}) as n`);
    if (r?.n) out.push(t.name);
  }
  return out;
}

/** Empties every table; the audit log's append-only triggers are lifted only inside this transaction. */
async function clearTables(db: TDb, tables: TTableInfo[]): Promise<void> {
  for (const t of tables) await db.execute(sql`alter table ${ident(t.name)} disable trigger user`);
  await db.execute(
    sql`truncate ${sql.join(
      tables.map((t) => ident(t.name)),
      sql`, `,
    )} cascade`,
  );
  for (const t of tables) await db.execute(sql`alter table ${ident(t.name)} enable trigger user`);
}

async function insertTable(db: TDb, dir: string, t: TManifest['tables'][number]): Promise<void> {
  const cols = sql.join(
    t.columns.map((c) => ident(c)),
    sql`, `,
  );
  let batch: string[] = [];
  const flush = async () => {
    if (!batch.length) return;
    // json_populate_recordset converts each JSON field to the column's own type, on both drivers.
    await db.execute(sql`insert into ${ident(t.name)} (${cols})
      select ${cols} from json_populate_recordset(null::${ident(t.name)}, ${`[${batch.join(',')}]`}::json)`);
    batch = [];
  };
  for await (const line of ndjsonLines(join(dir, t.file))) {
    batch.push(line);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
}

/**
 * Restores a backup into a fresh database. Everything is verified first (hashes, counts,
 * schema); images are written next (content-addressed, so harmless if the rest fails); then all
 * rows go in one transaction that also re-checks the row counts and the audit hash chain, so a
 * failure anywhere leaves the database as it was.
 */
export async function restoreBackup(opts: RestoreBackupOptions): Promise<TRestoreReport> {
  const log = opts.log ?? (() => undefined);
  const isDir = await stat(opts.from).then(
    (s) => s.isDirectory(),
    () => {
      throw new BackupError(`No backup at ${opts.from}.`);
    },
  );
  const dir = isDir ? opts.from : await extractArchive(opts.from);
  try {
    const manifest = await verifyBackupDir(dir);
    log(`verified ${manifest.tables.length} table dumps and ${manifest.files.length} images`);
    const target = await tablesInFkOrder(opts.db);
    checkCompatible(manifest, target, await appliedMigrations(opts.db));
    const occupied = await nonEmptyTables(opts.db, target);
    if (occupied.length && !opts.force) {
      throw new BackupError(
        `The target database is not empty (${occupied.join(', ')}). Restore into a fresh database, or pass --force to replace its contents. Nothing was restored.`,
      );
    }
    for (const f of manifest.files) {
      await opts.images.put(f.key, await readFile(join(dir, FILES_DIR, f.key)), 'application/octet-stream');
    }
    const rows: Record<string, number> = {};
    const auditEntries = await opts.db.transaction(async (tx) => {
      const db = tx as unknown as TDb;
      if (occupied.length) await clearTables(db, target);
      for (const t of manifest.tables) {
        await insertTable(db, dir, t);
        const [c] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${ident(t.name)}`);
        rows[t.name] = c?.n ?? 0;
        if (rows[t.name] !== t.rows)
          throw new BackupError(
            `Restoring ${t.name} gave ${rows[t.name]} rows instead of ${t.rows}. Nothing was restored.`,
          );
        log(`  ${t.name}: ${t.rows} rows`);
      }
      await resetSequences(db, target);
      const chain = await verifyAuditChain({ db });
      if (!chain.ok)
        throw new BackupError(
          `The restored audit log's hash chain is broken at entry ${chain.brokenAt}. Nothing was restored.`,
        );
      return chain.entries;
    });
    await recordAudit({
      db: opts.db,
      meta: null,
      entry: {
        actorUserId: null,
        action: 'system.restore',
        outcome: 'success',
        details: { tables: manifest.tables.length, files: manifest.files.length, backupCreatedAt: manifest.createdAt },
      },
    });
    return { manifest, rows, files: manifest.files.length, auditEntries };
  } finally {
    if (!isDir) await rm(dir, { recursive: true, force: true });
  }
}
