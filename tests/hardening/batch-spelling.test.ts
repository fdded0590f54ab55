import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, randomIp, signUpUser } from '../auth/auth-helpers.js';

/**
 * Issue 23 N2: the batch counter decided batch-ness from Fastify's query parser while tRPC reads
 * `searchParams.get('batch')`, so `?batch=1&batch=1` ran a batch that counted as one request.
 * For every spelling below, whatever tRPC runs as a batch of three costs three requests.
 */
const SPELLINGS = [
  'batch=1',
  'batch=1&batch=1',
  'batch=1&batch=',
  'batch=1&batch=0',
  'batch=1&batch=2',
  'batch=%31',
  '%62atch=1',
  'batch=1&input=%7B%7D',
  'x=1&batch=1&batch=1&batch=1',
  'batch[]=1&batch=1',
];

describe('tRPC batch counting (issue 23 N2)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...FAST_HASH_ENV } });
    token = (await signUpUser(t.app)).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (url: string, ip: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, remoteAddress: ip });
  const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-remaining']);

  for (const query of SPELLINGS) {
    test(`?${query}: a batch of three costs three requests`, async () => {
      const ip = randomIp();
      const before = remaining(await call('/trpc/auth.me', ip));
      const res = await call(`/trpc/auth.me,auth.me,auth.me?${query}`, ip);
      const body: unknown = res.json();
      if (Array.isArray(body)) {
        assert.equal(body.length, 3, res.body);
        assert.equal(remaining(res), before - 3, `tRPC ran three calls for ?${query}`);
      } else {
        // Not a batch for tRPC: the comma path is one unknown procedure, nothing runs.
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(remaining(res), before - 1);
      }
    });
  }
});
