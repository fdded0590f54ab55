import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { related } from '../helpers/stow-body.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_ENV } from '../history/http.js';

/**
 * Issue 39 S2: a team API key acted as its creator's whole account (/api/auth/me, the creator's
 * personal profiles, and an admin invitation into another team of the creator's). It is now a
 * STOW-RS credential and nothing else; tests/teams/permission-matrix.test.ts has the full column.
 */
describe('a team key is a STOW-RS credential and nothing else', () => {
  let t: TestApp;
  let admin: TTestUser;
  let key: string;
  let otherTeamId: string;

  const as = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp({ env: TEST_ENV });
    admin = await createUser(t.deps);
    const teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin' })).id;
    otherTeamId = (await createTeam(t.deps, { [admin.user.id]: 'admin' })).id;
    key = (await createApiKey({ db: t.deps.db, meta: null, userId: admin.user.id, teamId, name: 'pacs' })).key;
  });
  afterAll(async () => {
    await t.close();
  });

  test("the creator's account, profiles, teams and invitations answer 403 with a message", async () => {
    for (const [method, url, body] of [
      ['GET', '/api/auth/me'],
      ['GET', `/api/profile/${admin.user.id}`],
      ['GET', '/api/teams'],
      ['POST', `/api/teams/${otherTeamId}/invitations`, { email: 'outsider@evil.example', role: 'admin' }],
      ['GET', '/trpc/auth.me'],
      ['POST', '/api/auth/check-email', { email: admin.user.email }],
    ] as const) {
      const res = await as(method, url, body);
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.equal((res.json() as { message: string }).message, API_KEY_MESSAGES.teamKeyStowOnly);
    }
  });

  test('STOW-RS with it still files into the team', async () => {
    const body = related([(await buildDxInstance()).bytes]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      ...body,
      headers: { ...body.headers, authorization: `Bearer ${key}` },
    });
    assert.equal(res.statusCode, 200, res.body);
  });
});
