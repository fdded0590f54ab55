import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { teamMembers } from '../../server/src/db/schema.js';
import type { TWorklist } from '@contracts/schemas/worklist.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, TEST_ENV } from '../history/http.js';
import { seedStudies } from './seed-studies.js';

/**
 * Issue 39, "not reached by the scan": a reader's claim racing their removal from the team. Whichever
 * commits first, a removed reader holds nothing afterwards: the worklist shows the study free and
 * another reader claims it (activeClaimSql ignores a non-member's claim; dropMembership clears it).
 */
const ROUNDS = 8;

for (const backend of testBackends()) {
  describe(`a claim racing its reader's removal on ${backend}`, () => {
    let t: TestApp;
    let admin: TTestUser;
    let other: TTestUser;
    let teamId: string;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      [admin, other] = [await createUser(t.deps), await createUser(t.deps)];
      teamId = (await createTeam(t.deps, { [admin.user.id]: 'admin', [other.user.id]: 'radiologist' })).id;
    });
    afterAll(async () => {
      await t.close();
    });

    test(`${ROUNDS} rounds of claim and removal at once: the removed reader never holds the study`, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const reader = await createUser(t.deps);
        await t.deps.db.insert(teamMembers).values({ teamId, userId: reader.user.id, role: 'radiologist' });
        const [study] = await seedStudies(t.deps, { userId: admin.user.id, teamId }, [
          { status: 'analysed', createdAt: new Date() },
        ]);
        const [claim, removal] = await Promise.all([
          rest(t.app, 'POST', `/api/worklist/${study}/claim`, reader.token),
          rest(t.app, 'DELETE', `/api/teams/${teamId}/members/${reader.user.id}`, admin.token),
        ]);
        assert.equal(removal.status, 200);
        // 200 (claimed, then removed), 404 (removed first) or, when the claim's write lost the race
        // after its membership check, 409 with a generic "another reader" text (left as found).
        assert.ok(
          [200, 404, 409].includes(claim.status),
          `claim answered ${claim.status} ${JSON.stringify(claim.body)}`,
        );
        const list = await rest(t.app, 'GET', `/api/worklist?team=${teamId}`, admin.token);
        const row = ((list.body as { data: TWorklist }).data.items as { id: string; claim: unknown }[]).find(
          (s) => s.id === study,
        );
        assert.equal(row?.claim, null, `round ${i}: the study is free`);
        assert.equal((await rest(t.app, 'POST', `/api/worklist/${study}/claim`, other.token)).status, 200);
      }
    });
  });
}
