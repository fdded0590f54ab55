import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, messages } from '../../server/src/db/schema.js';
import { ZStoredResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { CHAT_MESSAGES } from '@contracts/schemas/chat.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { classifyQuestion, groundedAnswer } from '../../server/src/services/chat/responders/grounded-responder.js';
import type { TResponderContext } from '../../server/src/services/chat/responders/responder.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { analysedChat, queuedAnalysis, sampleResult } from '../analysis/support/fixtures.js';

const ctxOf = (query: string, result: TStoredResult = sampleResult()): TResponderContext => ({
  result,
  query,
  history: [],
  patient: { full_name: 'Ada', age: '34', medical_history: 'None' },
});

/** Every percentage quoted in an answer must be one of the stored result's own figures. */
function assertFiguresGrounded(answer: string, result: TStoredResult): void {
  const allowed = new Set(result.findings.flatMap((f) => [pct(f.probability), pct(f.threshold)]));
  const quoted = answer.match(/\d+\.\d%/g) ?? [];
  for (const q of quoted) assert.ok(allowed.has(q), `quoted ${q} is not in the stored result`);
}

describe('grounded responder (pure)', () => {
  test('recognises the question kinds', () => {
    const kinds: [string, string][] = [
      ['Can you explain the pneumonia finding?', 'finding'],
      ['How confident is the model?', 'confidence'],
      ['What should we do next?', 'next-steps'],
      ['What should we do next for this patient?', 'next-steps'],
      ['How sure is the model for this patient?', 'confidence'],
      ['What does bacterial pneumonia mean?', 'finding'],
      ['What is the differential?', 'differential'],
      ['How do I explain this to the patient?', 'patient'],
      ['Could it be tuberculosis?', 'not-assessed'],
      ['Is the X-ray normal?', 'normal'],
      ['Is the image quality good enough?', 'quality'],
    ];
    for (const [q, kind] of kinds) assert.equal(classifyQuestion(q).kind, kind, q);
  });

  test('explains a called finding with its stored probability and without a certain diagnosis', () => {
    const answer = groundedAnswer(ctxOf('Explain the pneumonia finding'));
    assert.ok(answer.includes(pct(0.8731)));
    assert.match(answer, /not a diagnosis/);
    assert.ok(answer.includes(DISCLAIMER));
    assertFiguresGrounded(answer, sampleResult());
  });

  test('never states a finding the model did not call', () => {
    const answer = groundedAnswer(ctxOf('Is this COVID?'));
    assert.match(answer, /COVID-19 4\.1% — not flagged \(below its operating point 35\.0%\)/i);
    assert.doesNotMatch(answer, /consistent with covid/i);
    assertFiguresGrounded(answer, sampleResult());
  });

  test('a condition the model does not assess is named as such, with no borrowed figure for it', () => {
    const answer = groundedAnswer(ctxOf('Could it be lung cancer?'));
    assert.match(answer, /does not assess lung cancer/);
    assertFiguresGrounded(answer, sampleResult());
  });

  test('confidence cites every stored figure; normal-or-not, next steps, differential, patient and quality answers are grounded', () => {
    const r = sampleResult();
    const conf = groundedAnswer(ctxOf('How sure is it?', r));
    for (const f of r.findings) assert.ok(conf.includes(pct(f.probability)), f.label);
    for (const q of [
      'Is it normal?',
      'Next steps?',
      'Differential diagnosis?',
      'Explain it to the patient in simple terms',
      'Any image quality problems?',
    ]) {
      const a = groundedAnswer(ctxOf(q, r));
      assertFiguresGrounded(a, r);
      assert.ok(a.includes(DISCLAIMER), q);
    }
    assert.match(groundedAnswer(ctxOf('Any image quality problems?', r)), /low contrast/);
  });

  test('with nothing called positive, "is it normal" does not claim a normal chest', () => {
    const negative = sampleResult({
      topFinding: null,
      findings: sampleResult().findings.map((f) => ({ ...f, probability: 0.05, call: 'negative' as const })),
    });
    const answer = groundedAnswer(ctxOf('Is it normal?', negative));
    assert.match(answer, /No finding flagged among those the model assesses/);
    assert.match(answer, /not a statement that the chest is normal/);
  });
});

for (const backend of testBackends()) {
  describe(`follow-up chat on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;
    const caller = (user: TTestUser) => sessionCaller(t.deps, user);

    beforeAll(async () => {
      t = await createTestApp({ backend });
      u = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('POST /api/chat/chat answers from the stored result and stores both messages', async () => {
      const a = await analysedChat(t.deps, u.user.id);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(u.token),
        payload: {
          chat_id: a.chatId,
          query: 'How confident is the model about pneumonia?',
          history: [{ role: 'user', content: 'hi' }],
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.success, true);
      const [row] = await t.deps.db
        .select({ result: analyses.result })
        .from(analyses)
        .where(eq(analyses.id, a.analysisId));
      const stored = ZStoredResult.parse(row!.result);
      for (const f of stored.findings) assert.ok(body.data.response.includes(pct(f.probability)), f.label);
      assertFiguresGrounded(body.data.response, stored);
      const msgs = await t.deps.db
        .select()
        .from(messages)
        .where(eq(messages.chatId, a.chatId))
        .orderBy(messages.createdAt);
      assert.deepEqual(
        msgs.map((m) => m.role),
        ['user', 'assistant', 'user', 'assistant'],
      );
      assert.equal(msgs[2]!.content, 'How confident is the model about pneumonia?');
      assert.equal(msgs[3]!.content, body.data.response);
    });

    test('tRPC chat.ask + chat.onReply stream the reply token by token, then the stored ids', async () => {
      const a = await analysedChat(t.deps, u.user.id);
      const { streamId } = await caller(u).chat.ask({ chatId: a.chatId, query: 'What should we do next?' });
      let text = '';
      let tokens = 0;
      let done: { replyId: string } | null = null;
      for await (const chunk of await caller(u).chat.onReply({ streamId })) {
        if (chunk.type === 'token') {
          text += chunk.text;
          tokens++;
        } else done = chunk;
      }
      assert.ok(tokens > 10);
      assert.ok(done);
      const [reply] = await t.deps.db.select().from(messages).where(eq(messages.id, done.replyId));
      assert.equal(reply?.content, text);
      assert.ok(text.includes(pct(0.8731)));
    });

    test("only for chats whose analysis is complete; another user's chat is not found", async () => {
      const pending = await queuedAnalysis(t.deps, u.user.id);
      const early = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(u.token),
        payload: { chat_id: pending.chatId, query: 'Is it normal?' },
      });
      assert.equal(early.statusCode, 409);
      assert.equal(early.json().message, CHAT_MESSAGES.notReady);
      const a = await analysedChat(t.deps, u.user.id);
      const other = await createUser(t.deps);
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(other.token),
        payload: { chat_id: a.chatId, query: 'Is it normal?' },
      });
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(other.token),
        payload: { chat_id: '00000000-0000-4000-8000-000000000000', query: 'Is it normal?' },
      });
      assert.equal(foreign.statusCode, 404);
      assert.deepEqual(foreign.json(), missing.json());
      await assert.rejects(caller(other).chat.send({ chatId: a.chatId, query: 'Is it normal?' }), {
        code: 'NOT_FOUND',
      });
      const anon = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        payload: { chat_id: a.chatId, query: 'x' },
      });
      assert.equal(anon.statusCode, 401);
      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(u.token),
        payload: { chat_id: a.chatId, query: '   ' },
      });
      assert.equal(empty.statusCode, 400);
    });
  });
}
