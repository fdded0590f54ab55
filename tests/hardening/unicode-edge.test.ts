import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { TEXT_MESSAGES } from '../../server/src/lib/inspect-text.js';
import { radiograph } from '../analysis/support/fixtures.js';
import { multipart, postMultipart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, rest, signUpUser } from '../auth/auth-helpers.js';

/**
 * Issue 23 N4: a lone surrogate (`\ud800`) in profile custom fields (REST and tRPC), or a NUL or
 * lone surrogate in the upload form's `profile` JSON, reached PostgreSQL and answered 500. Every
 * text field now goes through one check (server/src/lib/inspect-text.ts) and answers 400.
 */
const BAD = ['\ud800', 'a\udc00b', 'x\u0000y', '\udfff\ud800'];

describe('Unicode at the edge (issue 23 N4)', () => {
  let t: TestApp;
  let u: { id: string; token: string };
  let image: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...FAST_HASH_ENV, RATE_LIMIT_DISABLED: 'true' } });
    u = await signUpUser(t.app);
    image = await radiograph({ side: 256 });
  });
  afterAll(async () => {
    await t.close();
  });

  const refused = (status: number, message: unknown, context: string) => {
    assert.equal(status, 400, `${context}: ${String(message)}`);
    assert.equal(message, TEXT_MESSAGES.invalid, context);
  };

  test('REST profile custom fields, values and keys', async () => {
    for (const bad of BAD) {
      for (const profile of [
        { full_name: 'Ada Example', age: '34', notes: bad },
        { full_name: 'Ada Example', age: '34', [`k${bad}`]: 'v' },
        { full_name: `Ada ${bad}`, age: '34' },
      ]) {
        const r = await rest(t.app, 'POST', '/api/profile/create', { profile }, { bearer: u.token });
        refused(r.status, r.body.message, JSON.stringify(profile));
      }
    }
  });

  test('tRPC profile.create (JSON body) and a query input (GET)', async () => {
    for (const bad of BAD) {
      const input = { patientName: 'Ada Example', age: 34, additionalFields: [{ key: 'notes', value: bad }] };
      const r = await t.app.inject({
        method: 'POST',
        url: '/trpc/profile.create',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(input),
      });
      refused(r.statusCode, r.json().message, 'profile.create');
      const q = await t.app.inject({
        method: 'GET',
        url: `/trpc/history.list?input=${encodeURIComponent(JSON.stringify({ search: bad }))}`,
        headers: { authorization: `Bearer ${u.token}` },
      });
      refused(q.statusCode, q.json().message, 'history.list');
    }
  });

  test("the upload form's profile JSON and its other fields", async () => {
    const cases = [
      { name: 'profile', value: '{"full_name":"Ada \\ud800 Example","age":34}' },
      { name: 'profile', value: '{"full_name":"Ada Example","medical_history":"x\\u0000y"}' },
      { name: 'profile', value: '{"full_name":"Ada\u0000Example"}' },
      { name: 'profile_id', value: '\u0000' },
    ];
    for (const field of cases) {
      const body = multipart([field, { name: 'image', value: image, filename: 'x.jpg', type: 'image/jpeg' }]);
      const res = await postMultipart(t.app, '/api/chat/upload', body, u.token);
      refused(res.statusCode, res.json().message, field.value);
    }
  });

  test('well-formed text outside the BMP is stored as sent', async () => {
    const profile = { full_name: 'Ada 👩‍⚕️ Example', age: '34', notes: '🫁 山田太郎' };
    const r = await rest(t.app, 'POST', '/api/profile/create', { profile }, { bearer: u.token });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  });
});
