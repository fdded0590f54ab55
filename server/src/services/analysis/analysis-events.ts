import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { analysisEventsChannel, ZAnalysisEvent, type TAnalysisEvent } from '../../queue/queues.js';

/** Announces a stage change to every server process (ids and the stage only). */
export async function publishAnalysisEvent(redis: Redis, prefix: string, event: TAnalysisEvent): Promise<void> {
  await redis.publish(analysisEventsChannel(prefix), JSON.stringify(event));
}

export interface AnalysisEventHub {
  /** Calls `listener` for each event of one analysis until the returned function is called. */
  listen(analysisId: string, listener: (e: TAnalysisEvent) => void): Promise<() => void>;
  /** Every event, for server-side bookkeeping. */
  listenAll(listener: (e: TAnalysisEvent) => void): Promise<() => void>;
  close(): void;
}

const hubs = new WeakMap<Redis, AnalysisEventHub>();

/**
 * One subscriber connection per process (per Redis client), fanned out in memory: a thousand
 * browsers following their analyses cost one Redis connection, not a thousand.
 */
export function analysisEventHub(redis: Redis, prefix: string): AnalysisEventHub {
  const existing = hubs.get(redis);
  if (existing) return existing;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let sub: Redis | null = null;
  let ready: Promise<void> | null = null;
  const channel = analysisEventsChannel(prefix);
  const ensure = (): Promise<void> => {
    if (ready) return ready;
    sub = redis.duplicate();
    sub.on('error', () => undefined);
    sub.on('message', (_ch: string, text: string) => {
      let parsed: TAnalysisEvent;
      try {
        parsed = ZAnalysisEvent.parse(JSON.parse(text));
      } catch {
        return;
      }
      emitter.emit(parsed.analysisId, parsed);
      emitter.emit('*', parsed);
    });
    ready = sub.subscribe(channel).then(() => undefined);
    ready.catch(() => {
      ready = null;
      sub?.disconnect();
    });
    return ready;
  };
  const hub: AnalysisEventHub = {
    async listen(analysisId, listener) {
      emitter.on(analysisId, listener);
      await ensure();
      return () => emitter.off(analysisId, listener);
    },
    async listenAll(listener) {
      emitter.on('*', listener);
      await ensure();
      return () => emitter.off('*', listener);
    },
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
