import assert from 'node:assert/strict';
import { bearer } from './factories.js';
import type { TestApp } from './test-app.js';

/** Asks the chat `query` in `chatId` over the spec's REST path and returns the reply's text (200 asserted). */
export async function askChat(t: TestApp, token: string, chatId: string, query: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/chat/chat',
    headers: bearer(token),
    payload: { chat_id: chatId, query },
  });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: { response: string } }).data.response;
}
