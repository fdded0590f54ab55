import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { chatPageQuery, preparedChatPage } from '../../server/src/services/history/list-chats.js';
import { latestAnalysesOf } from '../../server/src/services/history/latest-analyses.js';
import { createChat, createUser } from '../helpers/factories.js';
import { createPostgresDatabase, pgliteSnapshot, testBackends, testConfig } from '../helpers/test-config.js';

// history.list reads through arrayRowStatement (rows as arrays, mapped by hand) instead of
// drizzle's mapping: on both drivers it must give exactly what drizzle's own select gives.
for (const backend of testBackends()) {
  describe(`history.list's hand-mapped statements on ${backend}`, () => {
    let database: Database;
    let drop: (() => Promise<void>) | null = null;
    let userId: string;
    const chatIds: string[] = [];

    beforeAll(async () => {
      const pgdb = backend === 'postgres' ? await createPostgresDatabase() : null;
      drop = pgdb?.drop ?? null;
      database = await openDatabase({ url: pgdb?.url, pgliteDir: 'memory://', pgliteSnapshot: pgliteSnapshot() });
      const deps = {
        db: database.db,
        images: null as never,
        config: testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }),
      };
      ({
        user: { id: userId },
      } = await createUser(deps));
      const statuses = ['completed', 'refused', undefined] as const;
      for (let i = 0; i < 5; i++) {
        const chat = await createChat(deps, userId, {
          title: `Chat ${i}`,
          analysisStatus: statuses[i % 3],
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
          // Stored snapshots are read defensively; an odd one must come back as stored.
          ...(i === 4 ? { patient: { full_name: 'Ünïcødé "quoted"', age: '', medical_history: '' } } : {}),
        });
        chatIds.push(chat.chat.id);
      }
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    test('a first page and a page after a cursor match drizzle row for row', async () => {
      const { db } = database;
      const first = await preparedChatPage({ db, userId, after: null, take: 3 });
      assert.deepEqual(first, await chatPageQuery({ db, userId, after: null, take: 3 }));
      assert.equal(first.length, 3);
      assert.ok(first[0]?.createdAt instanceof Date);
      const after = { createdAt: first[2]!.cursorTs, id: first[2]!.id };
      const rest = await preparedChatPage({ db, userId, after, take: 10 });
      assert.deepEqual(rest, await chatPageQuery({ db, userId, after, take: 10 }));
      assert.deepEqual(
        [...first, ...rest].map((c) => c.title),
        ['Chat 4', 'Chat 3', 'Chat 2', 'Chat 1', 'Chat 0'],
      );
      assert.equal(first[0]?.patient.full_name, 'Ünïcødé "quoted"');
    });

    test('the newest analysis of each chat, and none for a chat without one or an unknown id', async () => {
      const latest = await latestAnalysesOf({ db: database.db, chatIds: [...chatIds, crypto.randomUUID()] });
      assert.deepEqual(
        chatIds.map((id) => latest.get(id)?.status ?? null),
        ['completed', 'refused', null, 'completed', 'refused'],
      );
      assert.equal(latest.size, 4);
    });
  });
}
