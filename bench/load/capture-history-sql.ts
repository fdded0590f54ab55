import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { TDb } from '../../server/src/db/client.js';
import * as schema from '../../server/src/db/schema.js';
import { keysetPage } from '../../server/src/services/data-access/keyset-page.js';
import { preparedChatPage } from '../../server/src/services/history/list-chats.js';
import { latestAnalysesOf } from '../../server/src/services/history/latest-analyses.js';

export interface TCapturedQuery {
  sql: string;
  params: unknown[];
}

/**
 * The statements history.list's data part sends for one page (the keyset page of chats, then the
 * newest analysis of each), captured at the pool while running the service's own functions: what
 * the bare ceiling route replays.
 */
export async function captureHistorySql(databaseUrl: string, userId: string, limit: number): Promise<TCapturedQuery[]> {
  const captured: TCapturedQuery[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const query = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  (pool as unknown as { query: typeof query }).query = (config) => {
    captured.push({ sql: config.text, params: config.values ?? [] });
    return query(config);
  };
  try {
    const db = drizzle(pool, { schema }) as unknown as TDb;
    const page = await keysetPage(null, limit, (after, take) => preparedChatPage({ db, userId, after, take }));
    await latestAnalysesOf({ db, chatIds: page.rows.map((c) => c.id) });
    if (captured.length !== 2) throw new Error(`history.list sent ${captured.length} statements, expected 2`);
    return captured;
  } finally {
    await pool.end();
  }
}
