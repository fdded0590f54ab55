import type { AppDeps } from '../../deps.js';

/** The session facts resolveSession checks; cached per token hash. */
export interface TSessionRow {
  sessionId: string;
  userId: string;
  name: string;
  email: string;
  siteAdmin: boolean;
  lastUsedAt: Date;
  expiresAt: Date;
}

export interface TSessionCache {
  /** The cached row, or load()'s answer (cached when it is a live session). */
  lookup(tokenHash: string, load: () => Promise<TSessionRow | null>): Promise<TSessionRow | null>;
  close(): Promise<void>;
}

type TEnded = { sessionId: string } | { userId: string };

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

const channelOf = (prefix: string) => `${prefix}:sessions:ended`;

// This process's caches by channel: the process that ends a session drops it before answering,
// without waiting for its own subscriber to hear the announcement.
type TDrop = (ended: Partial<{ sessionId: string; userId: string }>) => void;
const localDrops = new Map<string, Set<TDrop>>();

/**
 * Tells every server process that sessions ended (logout, password change or reset, account
 * deletion), so each drops them from its cache. Call it after the revocation committed: a
 * process that re-reads the row before the commit would cache it again.
 */
export async function announceSessionsEnded(opts: Pick<AppDeps, 'redis' | 'config'> & TEnded): Promise<void> {
  const { redis, config } = opts;
  // Only the id goes out on the channel, never the rest of the caller's object.
  const ended: TEnded = 'sessionId' in opts ? { sessionId: opts.sessionId } : { userId: opts.userId };
  // Bounded wait: with Redis away every process's subscription is down too, so no cache is
  // trusted until it is back (and emptied); the revocation itself is already in the database.
  const channel = channelOf(config.QUEUE_PREFIX);
  for (const drop of localDrops.get(channel) ?? []) drop(ended);
  const published = redis.publish(channel, JSON.stringify(ended)).catch(() => 0);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([published, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
  clearTimeout(timer);
}

/**
 * A short-lived, bounded, in-process cache of resolved sessions, so a read does not pay a
 * database round trip for its session. It is only trusted while its pub/sub subscription is
 * up: a message missed while Redis was away could be a revocation, so until the subscription
 * is back every lookup goes to the database, and the cache starts empty again.
 */
export function createSessionCache(
  deps: Pick<AppDeps, 'redis' | 'config'>,
  opts = { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES },
): TSessionCache {
  const channel = channelOf(deps.config.QUEUE_PREFIX);
  const entries = new Map<string, { row: TSessionRow; until: number }>();
  // Bumped by every revocation: a database read that started before one must not be cached.
  let generation = 0;
  let live = false;
  const forget = () => {
    live = false;
    generation++;
    entries.clear();
  };

  const sub = deps.redis.duplicate();
  sub.on('error', () => undefined);
  sub.on('close', forget);
  sub.on('ready', () => {
    sub.subscribe(channel).then(() => {
      entries.clear();
      live = true;
    }, forget);
  });
  const drop: TDrop = (ended) => {
    generation++;
    for (const [key, { row }] of entries) {
      if (row.sessionId === ended.sessionId || row.userId === ended.userId) entries.delete(key);
    }
  };
  if (!localDrops.has(channel)) localDrops.set(channel, new Set());
  localDrops.get(channel)?.add(drop);
  sub.on('message', (_channel: string, text: string) => {
    try {
      drop(JSON.parse(text) as Parameters<typeof drop>[0]);
    } catch {
      forget();
    }
  });

  return {
    async lookup(tokenHash, load) {
      if (!live) return load();
      const hit = entries.get(tokenHash);
      if (hit && hit.until > Date.now()) return hit.row;
      if (hit) entries.delete(tokenHash);
      const started = generation;
      const row = await load();
      if (row && live && started === generation) {
        // Map keeps insertion order: the first key is the oldest entry.
        if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(tokenHash, { row, until: Date.now() + opts.ttlMs });
      }
      return row;
    },
    async close() {
      localDrops.get(channel)?.delete(drop);
      forget();
      sub.disconnect();
    },
  };
}
