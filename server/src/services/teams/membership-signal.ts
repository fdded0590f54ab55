import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** One member left or was removed: their open subscriptions on the team's rows must end. */
const ZRemoval = z.object({ teamId: z.uuid(), userId: z.uuid() });
type TRemoval = z.infer<typeof ZRemoval>;

const channelOf = (prefix: string) => `${prefix}:team-membership`;

/**
 * Announces a removal to every server process (a reply stream lives in the process that started
 * it, whichever process served the removal). Best effort: each subscription also re-reads access
 * where it can (follow-analysis.ts checks it on every event of a team's analysis).
 */
export async function publishMemberRemoved(redis: Redis, prefix: string, removal: TRemoval): Promise<void> {
  await redis.publish(channelOf(prefix), JSON.stringify(removal));
}

interface TMembershipHub {
  /** Calls `onRemoved(teamId)` whenever userId leaves a team, until the returned function is called. */
  onRemoved(userId: string, onRemoved: (teamId: string) => void): Promise<() => void>;
}

const hubs = new WeakMap<Redis, TMembershipHub>();

/** One subscriber connection per process (per Redis client), fanned out in memory by user id. */
export function membershipHub(opts: { redis: Redis; prefix: string }): TMembershipHub {
  const existing = hubs.get(opts.redis);
  if (existing) return existing;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let ready: Promise<unknown> | null = null;
  let sub: Redis | null = null;
  const ensure = () => {
    if (ready) return ready;
    const conn = opts.redis.duplicate();
    sub = conn;
    conn.on('error', () => undefined);
    conn.on('message', (_ch: string, text: string) => {
      let removal: TRemoval;
      try {
        removal = ZRemoval.parse(JSON.parse(text));
      } catch {
        return;
      }
      emitter.emit(removal.userId, removal.teamId);
    });
    ready = conn.subscribe(channelOf(opts.prefix));
    ready.catch(() => {
      ready = null;
      conn.disconnect();
    });
    return ready;
  };
  const hub: TMembershipHub = {
    async onRemoved(userId, onRemoved) {
      emitter.on(userId, onRemoved);
      const off = () => emitter.off(userId, onRemoved);
      try {
        await ensure();
      } catch (err) {
        off();
        throw err;
      }
      return off;
    },
  };
  // The hub lives as long as the connection it was made from.
  opts.redis.once('end', () => {
    sub?.disconnect();
    hubs.delete(opts.redis);
    emitter.removeAllListeners();
  });
  hubs.set(opts.redis, hub);
  return hub;
}
