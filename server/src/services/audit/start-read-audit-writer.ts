import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppDeps } from '../../deps.js';
import { appendAuditRows, type TAuditRow } from './record-audit.js';
import { attachReadAuditSink } from './read-audit-sink.js';
import {
  decodeAuditRow,
  encodeAuditRow,
  READ_AUDIT_GROUP,
  readAuditStreamKey,
  streamEntriesOf,
  type TStreamEntry,
} from './read-audit-stream.js';

const BATCH = 500;
/** How long a delivered entry may stay unacknowledged before any writer (this one too) retries it. */
const CLAIM_IDLE_MS = 5_000;
/** A read waits at most this long for Redis before its entry is written synchronously instead. */
const QUEUE_TIMEOUT_MS = 1_000;
const DRAIN_MS = 5_000;
/**
 * Pause after a batch that was not full, so entries gather: the entries wait safely in Redis, and
 * one transaction (lock, chain head, dedupe, insert) per 100 ms instead of per read keeps the
 * writer's database work flat however many reads arrive.
 */
const LINGER_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read-audit entries behind the request: a read's entry goes to a Redis stream (the request
 * waits for XADD only), and this consumer group inserts them in batches. At least once: an
 * entry is acknowledged only after its insert committed; one whose writer died or failed is
 * claimed again after CLAIM_IDLE_MS by any server process, and the entry's id makes the second
 * insert a no-op. close() stops taking new reads and drains what is queued.
 */
export function startReadAuditWriter(deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>): {
  close(): Promise<void>;
} {
  const { db, redis, log } = deps;
  const key = readAuditStreamKey(deps.config.QUEUE_PREFIX);
  const consumer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // XREADGROUP BLOCK holds its connection; close() disconnects it to end the wait at once.
  const reader = redis.duplicate();
  reader.on('error', () => undefined);
  // Reads answered in the same event-loop turn share one socket write for their XADDs.
  const producer = redis.duplicate({ enableAutoPipelining: true });
  producer.on('error', () => undefined);
  let stopping = false;

  const detach = attachReadAuditSink({
    db,
    sink: {
      write: (row: TAuditRow) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('audit queue timeout')), QUEUE_TIMEOUT_MS);
          producer.xadd(key, '*', 'e', encodeAuditRow(row)).then(
            () => (clearTimeout(timer), resolve()),
            (err: unknown) => (clearTimeout(timer), reject(err instanceof Error ? err : new Error(String(err)))),
          );
        }),
    },
  });

  async function ensureGroup(): Promise<void> {
    await redis.xgroup('CREATE', key, READ_AUDIT_GROUP, '0', 'MKSTREAM').catch((err: unknown) => {
      if (!String(err).includes('BUSYGROUP')) throw err;
    });
  }

  async function store(entries: TStreamEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows: TAuditRow[] = [];
    const foreign: string[] = [];
    for (const [id, fields] of entries) {
      const row = decodeAuditRow(fields[1]);
      if (row) rows.push(row);
      else foreign.push(id);
    }
    if (rows.length) await appendAuditRows({ db, rows });
    const ids = entries.map(([id]) => id);
    const stored = ids.filter((id) => !foreign.includes(id));
    const tx = redis.multi().xack(key, READ_AUDIT_GROUP, ...ids);
    // An entry this code cannot read is acknowledged (not retried forever) but kept for a person.
    if (stored.length) tx.xdel(key, ...stored);
    await tx.exec();
    if (foreign.length) log.error({ stream: key, ids: foreign }, 'unreadable read-audit entries left in the stream');
  }

  async function reclaim(): Promise<void> {
    let cursor = '0-0';
    do {
      const reply = (await redis.call(
        'XAUTOCLAIM',
        key,
        READ_AUDIT_GROUP,
        consumer,
        CLAIM_IDLE_MS,
        cursor,
        'COUNT',
        BATCH,
      )) as [string, unknown];
      await store(streamEntriesOf(reply[1]));
      cursor = reply[0];
    } while (cursor !== '0-0' && !stopping);
  }

  async function readNew(client: typeof redis, blockMs: number | null): Promise<TStreamEntry[]> {
    const block = blockMs === null ? [] : ['BLOCK', blockMs];
    const reply = await client.call(
      'XREADGROUP',
      'GROUP',
      READ_AUDIT_GROUP,
      consumer,
      'COUNT',
      BATCH,
      ...block,
      'STREAMS',
      key,
      '>',
    );
    const streams = reply as [string, unknown][] | null;
    return streamEntriesOf(streams?.[0]?.[1]);
  }

  const loop = (async () => {
    let nextClaim = 0;
    while (!stopping) {
      try {
        if (Date.now() >= nextClaim) {
          await ensureGroup();
          await reclaim();
          nextClaim = Date.now() + CLAIM_IDLE_MS;
        }
        const batch = await readNew(reader, 1_000);
        await store(batch);
        if (batch.length > 0 && batch.length < BATCH) await sleep(LINGER_MS);
      } catch (err) {
        if (stopping) break;
        // Left unacknowledged, the batch is claimed again after CLAIM_IDLE_MS.
        log.warn({ err }, 'read-audit writer: batch not stored, retrying');
        nextClaim = 0;
        await sleep(1_000);
      }
    }
  })();

  return {
    close: async () => {
      detach();
      stopping = true;
      reader.disconnect();
      producer.disconnect();
      await loop;
      // What this process queued and no writer has taken yet: store it before the process goes.
      const deadline = Date.now() + DRAIN_MS;
      try {
        for (
          let batch = await readNew(redis, null);
          batch.length && Date.now() < deadline;
          batch = await readNew(redis, null)
        ) {
          await store(batch);
        }
      } catch (err) {
        log.warn({ err }, 'read-audit writer: drain incomplete; the entries stay queued for the next start');
      }
    },
  };
}
