import type { Redis } from 'ioredis';
import { analysisEventsChannel, type TAnalysisEvent } from '@contracts/queues.js';

/**
 * Announces a stage to every server process: the worker's running stages and the finalizer's
 * terminal ones (ids, the stage and, when refused or failed, the safe message shown to the user).
 */
export async function publishAnalysisEvent(redis: Redis, prefix: string, event: TAnalysisEvent): Promise<void> {
  await redis.publish(analysisEventsChannel(prefix), JSON.stringify(event));
}
