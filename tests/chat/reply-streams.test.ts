import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ABANDON_MS, followReplyStream, startReplyStream } from '../../server/src/services/chat/reply-streams.js';
import { openAiResponder } from '../../server/src/services/chat/responders/openai-responder.js';
import type { Responder } from '../../server/src/services/chat/responders/responder.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { analysedChat, META } from '../analysis/support/fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A responder that answers slowly, one token at a time, so every chunk is a separate wait. */
const slowResponder = (tokens: number): Responder => ({
  name: 'grounded',
  async *reply() {
    for (let i = 0; i < tokens; i++) {
      await sleep(5);
      yield `t${i} `;
    }
  },
});

/**
 * A stand-in LLM server (OpenAI chat completions, streaming) that sends one chunk and then holds
 * the response open, recording when the client goes away.
 */
function startSlowLlm() {
  const state = { requests: 0, chunksSent: 0, closedByClient: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ choices: [{ delta: { content: 'Thinking ' } }] })}\n\n`,
      () => state.chunksSent++,
    );
    res.on('close', () => {
      if (!res.writableEnded) state.closedByClient++;
    });
  });
  return new Promise<{ url: string; state: typeof state; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        state,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

describe('reply streams', () => {
  let t: TestApp;
  let u: TTestUser;

  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps);
  });
  afterAll(() => t.close());

  test('D2: following a reply through 20 waits leaves no abort listener behind and no MaxListeners warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const a = await analysedChat(t.deps, u.user.id);
      const { streamId } = await startReplyStream({
        ...t.deps,
        meta: META,
        userId: u.user.id,
        chatId: a.chatId,
        query: 'Explain',
        responder: slowResponder(20),
      });
      const follower = new AbortController();
      const chunks: string[] = [];
      for await (const c of followReplyStream(u.user.id, streamId, follower.signal)) {
        chunks.push(c.type);
        assert.ok(
          getEventListeners(follower.signal, 'abort').length <= 1,
          'at most the one listener of the current wait',
        );
      }
      assert.equal(chunks.filter((c) => c === 'token').length, 20);
      assert.equal(chunks.at(-1), 'done');
      assert.equal(getEventListeners(follower.signal, 'abort').length, 0, 'no listener left on the signal');
      await sleep(10); // warnings are emitted on the next tick
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('D3: when the only subscriber goes away, the LLM request is aborted', async () => {
    const llm = await startSlowLlm();
    try {
      const a = await analysedChat(t.deps, u.user.id);
      const responder = openAiResponder({ baseUrl: llm.url, model: 'slow' });
      const { streamId } = await startReplyStream({
        ...t.deps,
        meta: META,
        userId: u.user.id,
        chatId: a.chatId,
        query: 'Explain',
        responder,
      });
      const tab = new AbortController();
      const follower = followReplyStream(u.user.id, streamId, tab.signal);
      const first = follower.next();
      // The LLM request is in flight: the server has sent its first chunk and holds the response open.
      for (let i = 0; i < 100 && llm.state.chunksSent === 0; i++) await sleep(ABANDON_MS / 20);
      assert.equal(llm.state.requests, 1);
      assert.equal(llm.state.chunksSent, 1);
      // The subscription ends (the tab is closed): tRPC aborts its signal and returns the generator.
      tab.abort();
      // The unchecked chunk was never shown: an answer is checked whole (issue 27) before any of it is.
      assert.deepEqual(await first, { done: true, value: undefined });
      await follower.return(undefined);
      for (let i = 0; i < 100 && llm.state.closedByClient === 0; i++) await sleep(ABANDON_MS / 20);
      assert.equal(llm.state.closedByClient, 1, 'the request to the LLM server was aborted');
    } finally {
      await llm.close();
    }
  });
});
