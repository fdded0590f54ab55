import { sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../server/src/db/client.js';

/** Both drivers answer execute() with `{ rows }`; this reads them with the shape we expect. */
export async function queryRows<T>(db: TDb, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export interface TTableInfo {
  name: string;
  columns: string[];
  /** Primary-key columns, used to dump rows in a stable order. */
  primaryKey: string[];
}

/** Every table of the public schema, parents before children (foreign-key order). */
export async function tablesInFkOrder(db: TDb): Promise<TTableInfo[]> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`
    select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`
    select cl.relname as child, pl.relname as parent
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid join pg_namespace n on n.oid = cl.relnamespace
    join pg_class pl on pl.oid = c.confrelid
    where c.contype = 'f' and n.nspname = 'public'`,
  );
  const names = tables.map((t) => t.name);
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const done = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((n) => !done.has(n) && [...(parents.get(n) ?? [])].every((p) => done.has(p)));
    if (ready.length === 0) throw new Error('foreign keys form a cycle; cannot order tables');
    for (const n of ready) {
      ordered.push(n);
      done.add(n);
    }
  }
  const out: TTableInfo[] = [];
  for (const name of ordered) {
    const cols = await queryRows<{ c: string }>(
      db,
      sql`
      select column_name as c from information_schema.columns
      where table_schema = 'public' and table_name = ${name} order by ordinal_position`,
    );
    const pk = await queryRows<{ c: string }>(
      db,
      sql`
      select a.attname as c from pg_index i
      join pg_class t on t.oid = i.indrelid join pg_namespace n on n.oid = t.relnamespace
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indisprimary and n.nspname = 'public' and t.relname = ${name}`,
    );
    out.push({ name, columns: cols.map((c) => c.c), primaryKey: pk.map((c) => c.c) });
  }
  return out;
}

/** Identifiers come from the catalog (or a validated manifest), never from user input. */
export function ident(name: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${JSON.stringify(name)}`);
  return sql.raw(`"${name}"`);
}

/** Hashes of the applied drizzle migrations, oldest first ([] if the table is absent). */
export async function appliedMigrations(db: TDb): Promise<string[]> {
  const exists = await queryRows<{ n: number }>(
    db,
    sql`
    select count(*)::int as n from pg_tables where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`,
  );
  if (!exists[0]?.n) return [];
  const rows = await queryRows<{ hash: string }>(db, sql`select hash from drizzle.__drizzle_migrations order by id`);
  return rows.map((r) => r.hash);
}

/** Points each serial column's sequence past the largest restored id. */
export async function resetSequences(db: TDb, tables: TTableInfo[]): Promise<void> {
  for (const t of tables) {
    for (const c of t.columns) {
      const [seq] = await queryRows<{ s: string | null }>(
        db,
        sql`select pg_get_serial_sequence(${`public.${t.name}`}, ${c}) as s`,
      );
      if (!seq?.s) continue;
      await db.execute(
        sql`select setval(${seq.s}::regclass, coalesce((select max(${ident(c)}) from ${ident(t.name)}), 0) + 1, false)`,
      );
    }
  }
}
