import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { teams } from '../../server/src/db/schema.js';
import { MAX_TEAMS_PER_ACCOUNT, TEAM_MESSAGES, ZTeamName } from '@contracts/schemas/team.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends, uniqueSuffix } from '../helpers/test-config.js';
import { TEST_ENV, trpc } from '../history/http.js';

/**
 * Issue 39: a team's slug is unique (S1), an account's teams are capped (S5), and a name carries
 * no control characters (Info: CR/LF reached the invitation e-mail's body).
 */
for (const backend of testBackends()) {
  describe(`team names on ${backend}`, () => {
    let t: TestApp;
    let owner: TTestUser;

    const create = async (token: string, name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/teams',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name }),
      });
      return { status: res.statusCode, message: (res.json() as { message?: string }).message };
    };

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      owner = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('a name that differs only in case, accents or punctuation is taken (REST and tRPC): 409', async () => {
      const name = `Émergency Dept ${uniqueSuffix()}`;
      assert.equal((await create(owner.token, name)).status, 201);
      const other = await createUser(t.deps);
      for (const twin of [name.toUpperCase() + '!', name.replace('É', 'E'), `  ${name.replace(/ /g, '--')}  `]) {
        assert.deepEqual(await create(other.token, twin), { status: 409, message: TEAM_MESSAGES.nameTaken }, twin);
      }
      const viaTrpc = await trpc(t.app, 'mutation', 'team.create', other.token, { name: name.toLowerCase() });
      assert.equal(viaTrpc.status, 409);
      assert.equal(viaTrpc.error?.message, TEAM_MESSAGES.nameTaken);
      const [stored] = await t.deps.db.select({ slug: teams.slug }).from(teams).where(eq(teams.name, name));
      assert.match(stored?.slug ?? '', /^emergency-dept-[a-z0-9-]+$/);
      // The database holds the rule too, whoever writes: a second row under the slug is refused.
      await assert.rejects(createTeam(t.deps, {}, { name: `${name}?` }));
    });

    test('control characters, CR/LF included, are refused with a message; so is a name without letters', async () => {
      for (const name of ['Radiology\r\nBcc: x@evil.example', 'Rad\u0085iology', 'Rad\tiology', 'Rad\u202eygoloi']) {
        assert.deepEqual(await create(owner.token, name), { status: 400, message: TEAM_MESSAGES.nameControl }, name);
        assert.equal(ZTeamName.safeParse(name).success, false, 'the client form refuses it too');
      }
      // NUL is refused before any schema (plugins/refuse-nul.ts); the shared schema refuses it as well.
      assert.equal((await create(owner.token, 'Rad\u0000iology')).status, 400);
      assert.equal(ZTeamName.safeParse('Rad\u0000iology').success, false);
      assert.deepEqual(await create(owner.token, '--- ...'), { status: 400, message: TEAM_MESSAGES.nameNoLetters });
      assert.equal(ZTeamName.parse("  Radiology — St Mary's  "), "Radiology — St Mary's");
    });

    test(`an account already in ${MAX_TEAMS_PER_ACCOUNT} teams cannot create another: 409`, async () => {
      const busy = await createUser(t.deps);
      for (let i = 0; i < MAX_TEAMS_PER_ACCOUNT - 1; i++) await createTeam(t.deps, { [busy.user.id]: 'clinician' });
      assert.equal((await create(busy.token, `Last one ${uniqueSuffix()}`)).status, 201);
      assert.deepEqual(await create(busy.token, `One too many ${uniqueSuffix()}`), {
        status: 409,
        message: TEAM_MESSAGES.tooManyTeams,
      });
    });
  });
}
