import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';

/**
 * Content-addressed keys are shared: two uploads of the same bytes store one file. Whoever
 * deletes a file (when no stored_images row names its key any more) and whoever adds a row for
 * an existing key take this transaction-scoped lock on the key, so a delete can never remove a
 * file that a row inserted a moment ago still needs.
 */
export async function withStorageKeyLock<T>(opts: {
  db: TDb;
  storageKey: string;
  work: (tx: TDb) => Promise<T>;
}): Promise<T> {
  const { storageKey, work } = opts;
  return opts.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stored-image:${storageKey}`}))`);

    return work(tx as unknown as TDb);
  });
}
