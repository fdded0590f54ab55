import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analysisEventsChannel } from '@contracts/queues.js';
import { ANALYSIS_MESSAGES, type TProgressEvent } from '@contracts/schemas/analysis.js';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import { failAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { followAnalysis } from '../../server/src/services/analysis/follow-analysis.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const FOLLOWERS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('following an analysis: one pub/sub source, one shared subscriber, no polling', () => {
  let t: TestApp;
  let u: TTestUser;
  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps);
  });
  afterAll(() => t.close());

  test(`${FOLLOWERS} followers share one Redis subscription, read the database once each, and end on the terminal event with its message`, async () => {
    const { analysis } = await createChat(t.deps, u.user.id, { analysisStatus: 'queued' });
    const analysisId = analysis!.id;
    const channel = analysisEventsChannel(t.deps.config.QUEUE_PREFIX);
    const numsub = async () => Number(((await t.deps.redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    const before = await numsub();

    // Count the statements the followers send: after the first read, none may follow.
    let selects = 0;
    const select = t.deps.db.select.bind(t.deps.db);
    t.deps.db.select = ((...args: Parameters<typeof select>) => {
      selects++;
      return select(...args);
    }) as typeof select;
    try {
      const seen: TProgressEvent[][] = Array.from({ length: FOLLOWERS }, () => []);
      const reading = seen.map(async (list) => {
        for await (const e of followAnalysis({ ...t.deps, userId: u.user.id, analysisId })) list.push(e);
      });
      while (seen.some((l) => l.length === 0)) await sleep(20);
      assert.equal(await numsub(), Math.max(before, 1), 'one subscription for the whole process');
      const afterFirstRead = selects;
      assert.equal(afterFirstRead, FOLLOWERS, 'one read per follower');
      await publishAnalysisEvent(t.deps.redis, t.deps.config.QUEUE_PREFIX, { analysisId, stage: 'analysing' });
      await sleep(1500); // longer than the old one-second poll
      assert.equal(selects, afterFirstRead, 'nothing polls the database');
      await failAnalysis({ ...t.deps, analysisId, reason: 'worker crashed' });
      await Promise.all(reading);
      for (const list of seen) {
        assert.deepEqual(
          list.map((e) => e.stage),
          ['queued', 'analysing', 'failed'],
        );
        assert.equal(list.at(-1)?.message, ANALYSIS_MESSAGES.failed, 'the terminal event says what to show');
      }
    } finally {
      t.deps.db.select = select;
    }
  });
});
