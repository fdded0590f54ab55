import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { dicomInstances } from '../../server/src/db/schema.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_ENV, trpc } from '../history/http.js';

/** worklist.list reads one space: the personal one by default, a team's for its members only. */
describe('teams: the worklist of a team', () => {
  let t: TestApp;
  let admin: TTestUser;
  let clinician: TTestUser;
  let stranger: TTestUser;
  let teamId: string;
  let teamStudy: string;
  let personalStudy: string;

  beforeAll(async () => {
    t = await createTestApp({ env: TEST_ENV });
    [admin, clinician, stranger] = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin', [clinician.user.id]: 'clinician' })).id;
    const rows = await t.deps.db
      .insert(dicomInstances)
      .values([
        { userId: admin.user.id, teamId, sopInstanceUid: '1.2.840.1', source: 'dimse' as const },
        { userId: admin.user.id, sopInstanceUid: '1.2.840.2', source: 'dimse' as const },
      ])
      .returning({ id: dicomInstances.id });
    [teamStudy, personalStudy] = rows.map((r) => r.id) as [string, string];
  });
  afterAll(async () => {
    await t.close();
  });

  const ids = (data: unknown) => (data as { items: { id: string }[] }).items.map((i) => i.id);

  test("a member sees the team's studies; the personal worklist keeps only the personal ones", async () => {
    for (const member of [admin, clinician]) {
      const r = await trpc(t.app, 'query', 'worklist.list', member.token, { team: teamId });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(ids(r.data), [teamStudy]);
    }
    assert.deepEqual(ids((await trpc(t.app, 'query', 'worklist.list', admin.token, {})).data), [personalStudy]);
    assert.deepEqual(ids((await trpc(t.app, 'query', 'worklist.list', clinician.token, {})).data), []);
  });

  test("another account asking for the team's worklist gets 404, like a team that does not exist", async () => {
    const r = await trpc(t.app, 'query', 'worklist.list', stranger.token, { team: teamId });
    assert.equal(r.status, 404);
    assert.equal(r.error?.message, 'Team not found');
  });
});
