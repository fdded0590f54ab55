import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { auditLog, findingFeedback } from '../../server/src/db/schema.js';
import { createAnalysedChat, RESULT } from '../export/analysed-chat.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { errorShape, rest, trpc, TEST_ENV } from '../history/http.js';

/** Clinician feedback (issue 17): REST and tRPC, edits, audit, and another account's chat like a missing one. */
describe('feedback API', () => {
  let t: TestApp;
  let owner: TTestUser;
  let other: TTestUser;
  let chatId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: TEST_ENV });
    owner = await createUser(t.deps);
    other = await createUser(t.deps);
    chatId = (await createAnalysedChat(t.deps, owner.user.id)).chat.id;
  });
  afterAll(async () => t?.close());

  test('agree, then edit to a disagreement: one row, the reading follows the verdict, both audited', async () => {
    const agree = await rest(t.app, 'POST', '/api/feedback', owner.token, {
      chat_id: chatId,
      finding: 'pneumonia',
      verdict: 'agree',
    });
    assert.equal(agree.status, 200);
    assert.deepEqual(agree.body, { success: true, message: 'Feedback saved' });
    let list = await rest(t.app, 'GET', `/api/feedback/${chatId}`, owner.token);
    const entries = (list.body as { data: { feedback: Record<string, unknown>[] } }).data.feedback;
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.reading, 'present');
    assert.equal(entries[0]?.modelProbability, RESULT.findings[0].probability);
    assert.equal(entries[0]?.modelVersion, RESULT.modelVersion);

    const edit = await rest(t.app, 'POST', '/api/feedback', owner.token, {
      chat_id: chatId,
      finding: 'pneumonia',
      verdict: 'disagree',
      note: 'old scarring',
    });
    assert.equal(edit.status, 200);
    list = await rest(t.app, 'GET', `/api/feedback/${chatId}`, owner.token);
    const [edited] = (list.body as { data: { feedback: Record<string, unknown>[] } }).data.feedback;
    assert.equal(edited?.verdict, 'disagree');
    assert.equal(edited?.reading, 'absent');
    assert.equal(edited?.note, 'old scarring');
    const rows = await t.deps.db.select().from(findingFeedback).where(eq(findingFeedback.chatId, chatId));
    assert.equal(rows.length, 1);
    const audits = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'feedback.save'), eq(auditLog.actorUserId, owner.user.id)));
    assert.equal(audits.filter((a) => a.outcome === 'success').length, 2);
    // Ids and verdicts only: the note never reaches the audit log.
    assert.ok(!JSON.stringify(audits).includes('old scarring'));
  });

  test('a disagreement may name the reading; an unknown finding or verdict is a 400', async () => {
    const r = await trpc(t.app, 'mutation', 'feedback.save', owner.token, {
      chatId,
      finding: 'covid19',
      verdict: 'disagree',
      reading: 'present',
    });
    assert.equal(r.status, 200);
    const list = await trpc(t.app, 'query', 'feedback.list', owner.token, { chatId });
    const covid = (list.data as { feedback: { finding: string; reading: string }[] }).feedback.find(
      (f) => f.finding === 'covid19',
    );
    assert.equal(covid?.reading, 'present');
    assert.equal(
      (
        await rest(t.app, 'POST', '/api/feedback', owner.token, {
          chat_id: chatId,
          finding: 'hernia',
          verdict: 'agree',
        })
      ).status,
      400,
    );
    const bad = await rest(t.app, 'POST', '/api/feedback', owner.token, {
      chat_id: chatId,
      finding: 'pneumonia',
      verdict: 'maybe',
    });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { message: string }).message, 'Verdict must be "agree" or "disagree"');
  });

  test("another account's chat answers exactly like a missing one and writes nothing; anonymous is 401", async () => {
    const body = (id: string) => ({ chat_id: id, finding: 'pneumonia', verdict: 'disagree' });
    const foreign = await rest(t.app, 'POST', '/api/feedback', other.token, body(chatId));
    const missing = await rest(t.app, 'POST', '/api/feedback', other.token, body(randomUUID()));
    assert.equal(foreign.status, 404);
    assert.deepEqual(errorShape(foreign), errorShape(missing));
    const foreignGet = await rest(t.app, 'GET', `/api/feedback/${chatId}`, other.token);
    assert.deepEqual(
      errorShape(foreignGet),
      errorShape(await rest(t.app, 'GET', `/api/feedback/${randomUUID()}`, other.token)),
    );
    const foreignTrpc = await trpc(t.app, 'query', 'feedback.list', other.token, { chatId });
    assert.deepEqual(
      errorShape(foreignTrpc),
      errorShape(await trpc(t.app, 'query', 'feedback.list', other.token, { chatId: randomUUID() })),
    );
    const rows = await t.deps.db.select().from(findingFeedback).where(eq(findingFeedback.userId, other.user.id));
    assert.equal(rows.length, 0);
    assert.equal((await rest(t.app, 'POST', '/api/feedback', null, body(chatId))).status, 401);
    assert.equal((await rest(t.app, 'GET', `/api/feedback/${chatId}`, null)).status, 401);
  });
});
