import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '../../server/src/db/schema.js';
import { CHAT_MESSAGES } from '@contracts/schemas/chat.js';
import { pct } from '../../server/src/services/analysis/compose-report.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { analysedChat, sampleResult } from '../analysis/support/fixtures.js';

/**
 * An external LLM cannot run in this test environment, so a local HTTP server speaks the same
 * protocol (OpenAI chat completions with `stream: true`, server-sent events): this is the one
 * stand-in for something outside the product. It records what it was sent.
 */
interface TSeen {
  auth: string | undefined;
  body: { model: string; stream: boolean; messages: { role: string; content: string }[] };
}

function startLlmServer(mode: { fail: boolean }) {
  const seen: TSeen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      seen.push({ auth: req.headers.authorization, body: JSON.parse(raw) as TSeen['body'] });
      if (mode.fail) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model not loaded"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = ['The ', 'model ', 'called ', 'pneumonia ', `(${pct(0.8731)}). `, 'Assistive ', 'only.'];
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] })}\n\n`);
      for (const w of words) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: w } }] })}\n\n`);
      res.write('data: [DONE]\n\n');
      res.end();
    });
  });
  return new Promise<{ url: string; seen: TSeen[]; mode: typeof mode; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        seen,
        mode,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

describe('OpenAI-compatible responder against a local streaming server', () => {
  let llm: Awaited<ReturnType<typeof startLlmServer>>;
  let t: TestApp;
  let u: TTestUser;

  beforeAll(async () => {
    llm = await startLlmServer({ fail: false });
    t = await createTestApp({ env: { LLM_BASE_URL: llm.url, LLM_MODEL: 'llama3.1:8b', LLM_API_KEY: 'sk-local-test' } });
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  test('streams the reply, binds the model to the stored result in the system prompt, and stores it', async () => {
    const a = await analysedChat(t.deps, u.user.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chat/chat',
      headers: bearer(u.token),
      payload: { chat_id: a.chatId, query: 'Explain the finding' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.response, `The model called pneumonia (${pct(0.8731)}). Assistive only.`);
    const sent = llm.seen.at(-1)!;
    assert.equal(sent.auth, 'Bearer sk-local-test');
    assert.equal(sent.body.model, 'llama3.1:8b');
    assert.equal(sent.body.stream, true);
    const system = sent.body.messages[0]!;
    assert.equal(system.role, 'system');
    for (const f of sampleResult().findings)
      assert.ok(system.content.includes(`${f.display}: probability ${pct(f.probability)}`), f.label);
    assert.match(system.content, /Never state or suggest a finding that the model did not call positive/);
    assert.match(system.content, /assistive only/);
    assert.equal(system.content.includes('Ada Example'), false, 'the patient name is never sent to the LLM');
    assert.equal(sent.body.messages.at(-1)?.content, 'Explain the finding');
    assert.ok(
      sent.body.messages.some((m) => m.role === 'assistant' && m.content.includes('Chest X-ray analysis')),
      'the report is in the history',
    );
    const stored = await t.deps.db.select().from(messages).where(eq(messages.chatId, a.chatId));
    assert.equal(stored.filter((m) => m.role === 'assistant').length, 2);
  });

  test('a failing LLM server gives the spec message and stores no half conversation', async () => {
    // The same app and configuration: only the stand-in server starts failing (its own account and chat).
    llm.mode.fail = true;
    try {
      const v = await createUser(t.deps);
      const a = await analysedChat(t.deps, v.user.id);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(v.token),
        payload: { chat_id: a.chatId, query: 'Explain' },
      });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().message, CHAT_MESSAGES.failed);
      const stored = await t.deps.db.select().from(messages).where(eq(messages.chatId, a.chatId));
      assert.equal(stored.length, 2, 'only the upload message and the report');
    } finally {
      llm.mode.fail = false;
    }
  });
});
