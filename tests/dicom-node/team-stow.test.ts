import assert from 'node:assert/strict';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances, patientProfiles, teamMembers } from '../../server/src/db/schema.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { advanceInstances } from '../../server/src/services/dicom-node/advance-instances.js';
import { receiveInstance } from '../../server/src/services/dicom-node/receive-instance.js';
import { DICOM_SEND_QUEUE } from '../../server/src/services/dicom-node/start-dicom-services.js';
import { newUid } from '../../server/src/services/dicom-node/write-part10.js';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { related } from '../helpers/stow-body.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { sampleResult, workerResultOf } from '../analysis/support/fixtures.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';

const SITE_ADMIN = `site-admin-${uniqueSuffix()}@example.org`;
const FAILED_SOP = '00081198';
const FAILURE_REASON = '00081197';

/**
 * Issue 32 part 4 and issue 36 S2: STOW-RS with a team key files into the team, and a team's
 * STOW results go to the PACS only when a site administrator listed the team. On PostgreSQL (the
 * node test runs on PGlite). The send queue is real; DICOM_DESTINATION is never reached.
 */
describe('STOW-RS with a team API key (issue 32)', () => {
  let t: TestApp;
  let admin: TTestUser;
  let secondAdmin: TTestUser;
  let radiologist: TTestUser;
  let clinician: TTestUser;
  let stranger: TTestUser;
  let siteAdmin: TTestUser;
  let teamId: string;
  let otherTeamId: string;
  let teamKey: string;
  let sendQueue: Queue;

  beforeAll(async () => {
    t = await createTestApp({
      backend: 'postgres',
      env: { ...TEST_ENV, DICOM_DESTINATION: 'PACS@127.0.0.1:9', SITE_ADMIN_EMAILS: SITE_ADMIN },
    });
    const make = () => createUser(t.deps);
    [admin, secondAdmin, radiologist, clinician, stranger] = [
      await make(),
      await make(),
      await make(),
      await make(),
      await make(),
    ];
    siteAdmin = await createUser(t.deps, { email: SITE_ADMIN });
    teamId = (
      await createTeam(t.deps, {
        [admin.user.id]: 'admin',
        [secondAdmin.user.id]: 'admin',
        [radiologist.user.id]: 'radiologist',
        [clinician.user.id]: 'clinician',
      })
    ).id;
    otherTeamId = (await createTeam(t.deps, { [stranger.user.id]: 'admin' })).id;
    sendQueue = new Queue(DICOM_SEND_QUEUE, { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX });
  });
  afterAll(async () => {
    await sendQueue?.close();
    await t?.close();
  });

  const createKey = (user: TTestUser, team: string) =>
    rest(t.app, 'POST', '/api/api-keys', user.token, { name: 'router', team_id: team });
  const stow = (key: string, parts: Buffer[]) => {
    const body = related(parts);
    return t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(key) },
    });
  };
  const rowOf = async (sop: string) =>
    (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, sop)))[0];
  /** Completes the instance's analysis and runs the advancer; true when a send job was queued. */
  const queuedForPacs = async (sop: string) => {
    const row = await rowOf(sop);
    assert.ok(row?.analysisId, 'queued for analysis');
    await finalizeAnalysis({
      ...t.deps,
      job: { analysisId: row.analysisId, result: workerResultOf(sampleResult()), heatmap: null },
    });
    await advanceInstances({ ...t.deps, sendQueue });
    return (await sendQueue.getJob(`send-${row.id}`)) !== undefined;
  };

  test('only a team admin creates a team key; a clinician gets 403, a stranger 404', async () => {
    const byClinician = await createKey(clinician, teamId);
    assert.equal(byClinician.status, 403);
    const byStranger = await createKey(stranger, teamId);
    assert.equal(byStranger.status, 404);
    const made = await createKey(admin, teamId);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const data = (made.body as { data: { key: string; apiKey: { teamId: string } } }).data;
    assert.equal(data.apiKey.teamId, teamId);
    teamKey = data.key;
  });

  test("a STOW with a team key lands in the team: a member's worklist, not the creator's personal one; 404 for others", async () => {
    const dx = await buildDxInstance({ patientId: 'STOW-TEAM-1' });
    const res = await stow(teamKey, [dx.bytes]);
    assert.equal(res.statusCode, 200, res.body);
    const row = await rowOf(dx.sopInstanceUid);
    assert.equal(row?.teamId, teamId);
    assert.equal(row?.userId, admin.user.id);
    assert.equal(row?.source, 'stow');
    const [profile] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, row.profileId!));
    assert.equal(profile?.teamId, teamId);
    const ids = (data: unknown) => (data as { items: { id: string }[] }).items.map((i) => i.id);
    const forMember = await trpc(t.app, 'query', 'worklist.list', radiologist.token, { team: teamId });
    assert.deepEqual(ids(forMember.data), [row.id]);
    assert.deepEqual(ids((await trpc(t.app, 'query', 'worklist.list', admin.token, {})).data), []);
    assert.equal((await trpc(t.app, 'query', 'worklist.list', stranger.token, { team: teamId })).status, 404);
  });

  test("a team's STOW results are not sent to the PACS until a site administrator lists the team", async () => {
    const before = await buildDxInstance({ patientId: 'STOW-TEAM-2', index: 1 });
    assert.equal((await stow(teamKey, [before.bytes])).statusCode, 200);
    assert.equal(await queuedForPacs(before.sopInstanceUid), false);

    // Listing the creator's account does not list the team: team rows follow the team's listing.
    const account = await trpc(t.app, 'mutation', 'site.setStowForwarding', siteAdmin.token, {
      email: admin.user.email,
      forward: true,
    });
    assert.equal(account.status, 200, JSON.stringify(account.body));
    const still = await buildDxInstance({ patientId: 'STOW-TEAM-3', index: 2 });
    assert.equal((await stow(teamKey, [still.bytes])).statusCode, 200);
    assert.equal(await queuedForPacs(still.sopInstanceUid), false);

    const denied = await trpc(t.app, 'mutation', 'site.setStowForwarding', admin.token, { teamId, forward: true });
    assert.equal(denied.status, 403, 'a team admin is not a site administrator');
    const missing = await trpc(t.app, 'mutation', 'site.setStowForwarding', siteAdmin.token, {
      teamId: 'not-a-team',
      forward: true,
    });
    assert.equal(missing.error?.message, 'No team has that id');
    const both = await trpc(t.app, 'mutation', 'site.setStowForwarding', siteAdmin.token, {
      teamId,
      email: admin.user.email,
      forward: true,
    });
    assert.equal(both.status, 400);
    const on = await trpc(t.app, 'mutation', 'site.setStowForwarding', siteAdmin.token, { teamId, forward: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.deepEqual(
      (on.data as { teams: { teamId: string }[] }).teams.map((x) => x.teamId),
      [teamId],
    );
    const listed = await buildDxInstance({ patientId: 'STOW-TEAM-4', index: 3 });
    assert.equal((await stow(teamKey, [listed.bytes])).statusCode, 200);
    assert.equal(await queuedForPacs(listed.sopInstanceUid), true);
  });

  test('a study already in another team is refused (0xC000 in FailedSOPSequence) and not recorded', async () => {
    const otherKey = (await createKey(stranger, otherTeamId)).body as { data: { key: string } };
    const studyUid = newUid();
    const first = await buildDxInstance({ patientId: 'SHARED-1', studyUid });
    assert.equal((await stow(otherKey.data.key, [first.bytes])).statusCode, 200);
    const second = await buildDxInstance({ patientId: 'SHARED-1', studyUid, index: 1 });
    const res = await stow(teamKey, [second.bytes]);
    assert.equal(res.statusCode, 409, res.body);
    const failed = (res.json() as Record<string, { Value: Record<string, { Value: number[] }>[] }>)[FAILED_SOP];
    assert.deepEqual(failed?.Value[0]?.[FAILURE_REASON]?.Value, [0xc000]);
    assert.equal(await rowOf(second.sopInstanceUid), undefined);
  });

  test('two instances of one study filed into two teams at the same moment: one is taken (its results go to the PACS), the log names no patient', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const studyUid = newUid();
    const [one, two] = [
      await buildDxInstance({ patientId: 'RACE-PID-7', studyUid }),
      await buildDxInstance({ patientId: 'RACE-PID-7', studyUid, index: 1 }),
    ];
    const file = (bytes: Buffer, team: string) =>
      receiveInstance({
        ...t.deps,
        log,
        meta: { ip: '127.0.0.1', requestId: 'race' },
        userId: admin.user.id,
        teamId: team,
        bytes,
        source: 'dimse',
        callingAe: 'PACS',
      });
    const outcomes = await Promise.all([file(one.bytes, teamId), file(two.bytes, otherTeamId)]);
    assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['failed', 'queued']);
    const refused = outcomes.find((o) => o.outcome === 'failed');
    assert.equal(refused?.outcome === 'failed' && refused.failure, 'elsewhere');
    const rows = await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.studyInstanceUid, studyUid));
    assert.equal(rows.length, 1, 'one space holds the study');
    // A team's instance from the node goes back to the PACS as the owner's do (issue 36 S2).
    assert.equal(await queuedForPacs(rows[0]!.sopInstanceUid), true);
    const text = lines.join('');
    assert.match(text, /its study belongs to another space/);
    for (const secret of ['RACE-PID-7', studyUid, one.sopInstanceUid, two.sopInstanceUid, 'TESTCASE'])
      assert.ok(!text.includes(secret), 'no patient data or UID in the log');
  });

  test('a team key whose creator left the team is refused with 403 and files nothing', async () => {
    const made = await createKey(secondAdmin, teamId);
    const key = (made.body as { data: { key: string } }).data.key;
    await t.deps.db.delete(teamMembers).where(eq(teamMembers.userId, secondAdmin.user.id));
    const dx = await buildDxInstance({ patientId: 'STOW-GONE-1' });
    const res = await stow(key, [dx.bytes]);
    assert.equal(res.statusCode, 403);
    assert.equal((res.json() as { message: string }).message, API_KEY_MESSAGES.teamCreatorGone);
    assert.equal(await rowOf(dx.sopInstanceUid), undefined);
  });
});
