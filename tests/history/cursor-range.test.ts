import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { trpc, TEST_ENV } from './http.js';

/**
 * Issue 39, S8: every keyset page parses its cursor in one place (keyset-cursor-fields.ts) and
 * answers 400 for a cursor PostgreSQL would refuse. The scan's cursors were times JavaScript
 * parses and PostgreSQL does not; `history.list {team, cursor}` answered 500 with them.
 */
const cursorOf = (fields: unknown[]) => Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
const UUID = '00000000-0000-4000-8000-000000000000';
const GOOD_TIME = '2026-01-02 03:04:05.123456+00';

/** Times Date.parse accepts (so the old check let them through) and PostgreSQL refuses. */
const BAD_TIMES = [
  '1',
  '+275760-09-13T00:00:00.000Z',
  `${GOOD_TIME}\u0000`,
  '2026-02-30 00:00:00+00',
  '0000-01-01 00:00:00+00',
  '2026-01-02 24:00:00+00',
  '2026-01-02 03:04:05+16',
  'Tue, 01 Jan 2030 00:00:00',
];

for (const backend of testBackends()) {
  describe(`keyset cursors on ${backend}`, () => {
    let t: TestApp;
    let me: TTestUser;
    let teamId: string;
    const status = async (path: string, input: object) => (await trpc(t.app, 'query', path, me.token, input)).status;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      me = await createUser(t.deps);
      teamId = (await createTeam(t.deps, { [me.user.id]: 'admin' })).id;
      await createChat(t.deps, me.user.id);
    });
    afterAll(() => t?.close());

    test('history.list (personal and team), profiles and messages: 400 for every time PostgreSQL refuses', async () => {
      const { chat } = await createChat(t.deps, me.user.id, { withMessages: 2 });
      for (const time of BAD_TIMES) {
        const cursor = cursorOf([time, UUID]);
        assert.equal(await status('history.list', { team: teamId, cursor }), 400, `team history ${time}`);
        assert.equal(await status('history.list', { cursor }), 400, `history ${time}`);
        assert.equal(await status('profile.list', { cursor }), 400, `profiles ${time}`);
        assert.equal(await status('history.get', { chatId: chat.id, cursor }), 400, `messages ${time}`);
      }
      for (const cursor of [cursorOf([GOOD_TIME, 'not-a-uuid']), cursorOf([GOOD_TIME]), 'x', cursorOf([1, UUID])])
        assert.equal(await status('history.list', { team: teamId, cursor }), 400, cursor);
      assert.equal(await status('history.list', { team: teamId, cursor: cursorOf([GOOD_TIME, UUID]) }), 200);
      assert.equal(await status('history.list', { cursor: cursorOf(['2026-01-02 03:04:05+05:30', UUID]) }), 200);
    });

    test('worklist: done, rank and time range-checked', async () => {
      for (const fields of [
        ...BAD_TIMES.map((time) => [0, 0, time, UUID]),
        [2 ** 40, 0, GOOD_TIME, UUID],
        [0, 0.5, GOOD_TIME, UUID],
        [0, 0, GOOD_TIME, 'nope'],
        // The order before issue 41 (rank, score, time, id) is no cursor now.
        [0, 0.5, GOOD_TIME, UUID].slice(1),
      ])
        assert.equal(await status('worklist.list', { cursor: cursorOf(fields) }), 400, JSON.stringify(fields));
      assert.equal(await status('worklist.list', { team: teamId, cursor: cursorOf([0, 2, GOOD_TIME, UUID]) }), 200);
    });

    test("a team's audit trail: an entry id past what a number holds exactly is 400, not a rounded id", async () => {
      assert.equal(await status('team.audit', { teamId, cursor: '99999999999999999' }), 400);
      assert.equal(await status('team.audit', { teamId, cursor: '12' }), 200);
    });
  });
}
