import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import { ANALYSIS_MESSAGES, type TProgressEvent } from '@contracts/schemas/analysis.js';
import type { TReplyChunk } from '@contracts/schemas/chat.js';
import { analyses, chats } from '../../server/src/db/schema.js';
import { followAnalysis } from '../../server/src/services/analysis/follow-analysis.js';
import { followReplyStream, startReplyStream } from '../../server/src/services/chat/reply-streams.js';
import type { Responder } from '../../server/src/services/chat/responders/responder.js';
import { removeMember } from '../../server/src/services/teams/remove-member.js';
import { analysedChat, META } from '../analysis/support/fixtures.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects what one subscription delivers, and how it ended. */
function collect<T>(iterator: AsyncGenerator<T>) {
  const got: T[] = [];
  const ended = (async () => {
    try {
      for await (const x of iterator) got.push(x);
      return null;
    } catch (err) {
      return err as Error;
    }
  })();
  return { got, ended };
}

/** The subscription's end, or a failure after 5 s (a subscription that was not cut keeps waiting). */
function endOf(sub: { ended: Promise<Error | null> }): Promise<Error | null> {
  return Promise.race([
    sub.ended,
    sleep(5000).then(() => assert.fail('the subscription is still open and waiting for events')),
  ]);
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await sleep(20);
  assert.ok(check(), `timed out waiting for ${what}`);
}

/**
 * Issue 32 §2: removing a member cuts their open subscriptions on the team's rows at once, not
 * only when the next one opens. The admin's identical subscriptions are the control: the events
 * exist and are delivered to a member.
 */
describe("teams: a removed member's open subscriptions stop at once", () => {
  let t: TestApp;
  let admin: TTestUser;
  let reader: TTestUser;
  let teamId: string;

  beforeAll(async () => {
    t = await createTestApp();
    [admin, reader] = [await createUser(t.deps), await createUser(t.deps)];
  });
  afterAll(() => t.close());

  test('analysis progress: the next stage reaches the admin, not the removed radiologist', async () => {
    teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin', [reader.user.id]: 'radiologist' })).id;
    const { analysis } = await createChat(t.deps, admin.user.id, { analysisStatus: 'queued', teamId });
    const analysisId = analysis!.id;
    const publish = (stage: TProgressEvent['stage']) =>
      publishAnalysisEvent(t.deps.redis, t.deps.config.QUEUE_PREFIX, { analysisId, stage });

    const adminSees = collect(followAnalysis({ ...t.deps, userId: admin.user.id, analysisId }));
    const readerSees = collect(followAnalysis({ ...t.deps, userId: reader.user.id, analysisId }));
    await until(() => adminSees.got.length === 1 && readerSees.got.length === 1, 'the stored stage');
    await publish('checking');
    await until(() => adminSees.got.length === 2 && readerSees.got.length === 2, 'the first event');

    await removeMember({ ...t.deps, meta: META, userId: admin.user.id, teamId, memberId: reader.user.id });
    await publish('analysing');
    await until(() => adminSees.got.length === 3, 'the admin to get the next stage');
    const err = await endOf(readerSees);
    assert.equal(err?.message, ANALYSIS_MESSAGES.analysisNotFound, 'ends like a foreign id');
    assert.deepEqual(
      readerSees.got.map((e) => e.stage),
      ['queued', 'checking'],
      'nothing after the removal',
    );
    await publish('done');
    assert.equal(await endOf(adminSees), null);
  });

  test('a streamed reply on a team chat stops for its author the moment they are removed', async () => {
    const member = await createUser(t.deps);
    teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin', [member.user.id]: 'clinician' })).id;
    const { chatId, analysisId } = await analysedChat(t.deps, member.user.id);
    await t.deps.db.update(chats).set({ teamId }).where(eq(chats.id, chatId));
    await t.deps.db.update(analyses).set({ teamId }).where(eq(analyses.id, analysisId));
    let produced = 0;
    const slow: Responder = {
      name: 'grounded',
      async *reply(_ctx, signal) {
        for (let i = 0; i < 200 && !signal?.aborted; i++) {
          await sleep(10);
          produced++;
          yield `t${i} `;
        }
      },
    };
    const { streamId } = await startReplyStream({
      ...t.deps,
      meta: META,
      userId: member.user.id,
      chatId,
      query: 'Explain',
      responder: slow,
    });
    const tab = collect<TReplyChunk>(followReplyStream(member.user.id, streamId));
    await until(() => tab.got.length >= 3, 'the first tokens');

    await removeMember({ ...t.deps, meta: META, userId: admin.user.id, teamId, memberId: member.user.id });
    const err = await endOf(tab);
    assert.ok(err, 'the follower ends with an error, not a finished reply');
    const delivered = tab.got.length;
    assert.ok(!tab.got.some((c) => c.type === 'done'), 'the reply is not completed for them');
    await sleep(200);
    assert.ok(produced < 200, 'the model call was aborted');

    // A tab that opens now (an SSE reconnect) gets nothing either.
    const late = collect<TReplyChunk>(followReplyStream(member.user.id, streamId));
    assert.ok(await endOf(late));
    assert.equal(late.got.length, 0);
    assert.equal(tab.got.length, delivered);
  });
});
