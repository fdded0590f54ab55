import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { analysisEventsChannel, ZAnalysisEvent, type TAnalysisEvent } from '@contracts/queues.js';

export interface TEventListener {
  onEvent(e: TAnalysisEvent): void;
  /**
   * The subscriber connection was lost and is back: events published meanwhile are gone, so a
   * follower re-reads the database once. Not called for the first connection.
   */
  onResync?(): void;
}

export interface AnalysisEventHub {
  /** Calls `listener` for each event of one analysis until the returned function is called. */
  listen(analysisId: string, listener: TEventListener): Promise<() => void>;
  /** Every event, for server-side bookkeeping. */
  listenAll(listener: TEventListener): Promise<() => void>;
  close(): void;
}

const ALL = '*';
const RESYNC = 'resync';
const hubs = new WeakMap<Redis, AnalysisEventHub>();

/**
 * One subscriber connection per process (per Redis client), fanned out in memory: a thousand
 * browsers following their analyses cost one Redis subscription, and nothing polls.
 */
export function analysisEventHub(opts: { redis: Redis; prefix: string }): AnalysisEventHub {
  const { redis, prefix } = opts;
  const existing = hubs.get(redis);
  if (existing) return existing;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let sub: Redis | null = null;
  let ready: Promise<void> | null = null;
  const channel = analysisEventsChannel(prefix);
  const ensure = (): Promise<void> => {
    if (ready) return ready;
    const conn = redis.duplicate();
    sub = conn;
    conn.on('error', () => undefined);
    conn.on('message', (_ch: string, text: string) => {
      let parsed: TAnalysisEvent;
      try {
        parsed = ZAnalysisEvent.parse(JSON.parse(text));
      } catch {
        return;
      }
      emitter.emit(parsed.analysisId, parsed);
      emitter.emit(ALL, parsed);
    });
    ready = conn.subscribe(channel).then(() => {
      // ioredis subscribes again by itself after a reconnect; each later 'ready' is one.
      conn.on('ready', () => emitter.emit(RESYNC));
    });
    ready.catch(() => {
      ready = null;
      conn.disconnect();
    });
    return ready;
  };
  const add = async (name: string, listener: TEventListener): Promise<() => void> => {
    const onEvent = (e: TAnalysisEvent) => listener.onEvent(e);
    const onResync = () => listener.onResync?.();
    emitter.on(name, onEvent);
    emitter.on(RESYNC, onResync);
    const remove = () => {
      emitter.off(name, onEvent);
      emitter.off(RESYNC, onResync);
    };
    try {
      await ensure();
    } catch (err) {
      remove();
      throw err;
    }
    return remove;
  };
  const hub: AnalysisEventHub = {
    listen: (analysisId, listener) => add(analysisId, listener),
    listenAll: (listener) => add(ALL, listener),
    close() {
      sub?.disconnect();
      sub = null;
      ready = null;
      hubs.delete(redis);
      emitter.removeAllListeners();
    },
  };
  // The hub lives as long as the connection it was made from.
  redis.once('end', () => hub.close());
  hubs.set(redis, hub);
  return hub;
}
