import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { pct } from '../../server/src/services/analysis/compose-report.js';
import { ungroundedNumbers } from '../../server/src/services/chat/responders/check-llm-answer.js';
import { GUARD_NOTE } from '../../server/src/services/chat/responders/openai-responder.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { analysedChat, sampleResultV2 } from '../analysis/support/fixtures.js';

describe('the number check (pure)', () => {
  const facts = [
    'Pneumonia: probability 88.8%, threshold 45.0%',
    'CTR 0.56; ROC AUC 0.940 (95% CI 0.912-0.963); 1,486 images',
  ];

  test('numbers from the facts pass, as quoted or rounded, as fractions or percentages', () => {
    assert.deepEqual(
      ungroundedNumbers('It is 88.8% (about 89%), threshold 45%, CTR 0.56, AUC 0.94 i.e. 94%, on 1,486 images.', facts),
      [],
    );
    assert.deepEqual(ungroundedNumbers('Two findings: 1. pneumonia 2. effusion', facts), []);
  });

  test('a number the facts do not back is reported, once', () => {
    assert.deepEqual(ungroundedNumbers('Probability 92.4%, CTR 0.61, and again 92.4%.', facts), ['92.4', '0.61']);
    assert.deepEqual(ungroundedNumbers('Give 500 mg amoxicillin for 7 days', facts), ['500']);
  });
});

/**
 * A local server speaking OpenAI's chat-completions protocol (stream: true), the stand-in for a
 * hospital's LLM: it records every request and answers with the next scripted reply.
 */
function startScriptedLlm(script: string[]) {
  const seen: { messages: { role: string; content: string }[] }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      seen.push(JSON.parse(raw) as (typeof seen)[number]);
      const reply = script[(seen.length - 1) % script.length]!;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const w of reply.match(/\S+\s*/g) ?? [])
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: w } }] })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise<{ url: string; seen: typeof seen; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

const RESULT: TStoredResult = sampleResultV2({
  heatmapZones: [
    {
      label: 'cardiomegaly',
      zones: {
        right_upper: 0.1,
        right_middle: 0.3,
        right_lower: 0.1,
        left_upper: 0.1,
        left_middle: 0.3,
        left_lower: 0.1,
      },
    },
  ],
});

describe('the LLM path stays grounded (local OpenAI-compatible stub)', () => {
  let llm: Awaited<ReturnType<typeof startScriptedLlm>>;
  let t: TestApp;
  let u: TTestUser;
  const GOOD = `The model called cardiomegaly at ${pct(0.7408)}; the measured CTR is 0.56, above 0.50.`;
  const INVENTED = 'The model is 97.3% sure this is cardiomegaly, with a CTR of 0.61.';

  beforeAll(async () => {
    llm = await startScriptedLlm([GOOD, INVENTED]);
    t = await createTestApp({ env: { LLM_BASE_URL: llm.url, LLM_MODEL: 'stub' } });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const ask = async (chatId: string, query: string): Promise<string> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chat/chat',
      headers: bearer(u.token),
      payload: { chat_id: chatId, query },
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: { response: string } }).data.response;
  };

  test('a grounded answer is shown as written; an invented number gets the grounded answer instead', async () => {
    const a = await analysedChat(t.deps, u.user.id, RESULT);
    assert.equal(await ask(a.chatId, 'How big is the heart?'), GOOD);

    const prompt = llm.seen.at(-1)!.messages[0]!.content;
    assert.match(prompt, /patient's right middle 30%/, 'the zones are given as facts');
    assert.match(prompt, /Reference answer built from the stored facts/);
    assert.match(prompt, /cardiothoracic ratio of 0\.56/, 'the grounded answer to this question is given');

    const guarded = await ask(a.chatId, 'How sure is the model?');
    assert.ok(guarded.startsWith(GUARD_NOTE), guarded);
    assert.equal(guarded.includes('97.3%'), false);
    assert.equal(guarded.includes('0.61'), false);
    assert.ok(guarded.includes(`Cardiomegaly ${pct(0.7408)} — likely`), 'the grounded confidence answer is shown');
    // The second request carried the first exchange as history.
    assert.ok(llm.seen.at(-1)!.messages.some((m) => m.role === 'assistant' && m.content === GOOD));
  });
});
