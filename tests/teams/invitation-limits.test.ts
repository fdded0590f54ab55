import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { startInbox } from '../auth/smtp-inbox.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { TEST_ENV } from '../history/http.js';

/**
 * Issue 39 S5 over a real SMTP exchange: one account sent 150 invitation e-mails to one outside
 * address in 4.6 s (3 teams × 50 pending). Now at most 5 an hour reach an address across every
 * team, and an account sends at most INVITATIONS_PER_ACCOUNT_PER_HOUR (3 here, to keep it short).
 * Refusals answer 429 in the wording of the other limits and send nothing.
 */
describe('invitation mail limits', () => {
  let t: TestApp;
  let inbox: Awaited<ReturnType<typeof startInbox>>;

  const invite = async (by: TTestUser, teamId: string, email: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/teams/${teamId}/invitations`,
      headers: { authorization: `Bearer ${by.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ email, role: 'admin' }),
    });
    return { status: res.statusCode, message: (res.json() as { message?: string }).message };
  };
  const teamOf = async (admin: TTestUser) => (await createTeam(t.deps, { [admin.user.id]: 'admin' })).id;

  beforeAll(async () => {
    inbox = await startInbox();
    t = await createTestApp({
      env: { ...TEST_ENV, SMTP_URL: inbox.url, INVITATIONS_PER_ACCOUNT_PER_HOUR: '3' },
    });
  });
  afterAll(async () => {
    await t.close();
    await inbox.close();
  });

  test('an address gets at most 5 invitations an hour, whichever teams and admins send them', async () => {
    const target = `victim-${uniqueSuffix()}@outside.example`;
    const admins = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    const answers: number[] = [];
    for (const admin of admins) {
      const teamId = await teamOf(admin);
      for (let i = 0; i < 2; i++) answers.push((await invite(admin, teamId, target)).status);
    }
    // Two admins' two each, then the third admin's first; the sixth is refused.
    assert.deepEqual(answers, [201, 201, 201, 201, 201, 429]);
    const refused = await invite(admins[0] as TTestUser, await teamOf(admins[0] as TTestUser), target);
    assert.deepEqual(refused, { status: 429, message: TEAM_MESSAGES.tooManyInvitesToAddress });
    const delivered = inbox.received.splice(0).filter((m) => m.to.includes(target));
    assert.equal(delivered.length, 5, 'five e-mails reached the address, no more');
  });

  test('an account sends at most INVITATIONS_PER_ACCOUNT_PER_HOUR invitations, across its teams', async () => {
    const admin = await createUser(t.deps);
    const [one, two] = [await teamOf(admin), await teamOf(admin)];
    const answers = [];
    for (const teamId of [one, two, one, two])
      answers.push(await invite(admin, teamId, `p-${uniqueSuffix()}@outside.example`));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 429],
    );
    assert.equal(answers[3]?.message, TEAM_MESSAGES.tooManyInvitesFromAccount);
    inbox.received.splice(0);
  });
});
