import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, dicomInstances, dicomPatients, patientProfiles } from '../../server/src/db/schema.js';
import { newUid } from '../../server/src/services/dicom-node/write-part10.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTeam } from '../helpers/team-factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { freePort } from '../helpers/start-orthanc.js';
import { TEST_ENV, trpc } from '../history/http.js';
import { confirmOwnerForTest, untilNodeAccepts } from './support/node-owner.js';

const run = promisify(execFile);
const NODE_AE = 'CXR_AI';
const TEAM_A = 'RAD_A';
const TEAM_B = 'RAD_B';

/**
 * Issue 32 part 4: the node routes by the called AE title. Real dcmtk (storescu, echoscu)
 * against the node's own thread; a team's AE title set through team.setAeTitle reaches the node
 * by its 5-second poll, so the tests wait (generously) for the node to accept it.
 */
describe('the DICOM node routes by called AE title to a team (issue 32)', () => {
  let t: TestApp;
  let port: number;
  let owner: TTestUser;
  let adminA: TTestUser;
  let adminB: TTestUser;
  let stranger: TTestUser;
  let teamA: string;
  let teamB: string;
  const dir = mkdtempSync(join(tmpdir(), 'dicom-teams-'));

  /** storescu's output (it exits non-zero on a refused association or an error status). */
  const store = async (calledAe: string, bytes: Buffer) => {
    const file = join(dir, `${newUid()}.dcm`);
    writeFileSync(file, bytes);
    const args = ['-v', '-aet', 'STORESCU', '-aec', calledAe, '127.0.0.1', String(port), file];
    const r = await run('storescu', args).catch((e: { stdout: string; stderr: string }) => e);
    return `${r.stdout}${r.stderr}`;
  };
  const rowOf = async (sop: string) =>
    (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, sop)))[0];
  const worklist = (user: TTestUser, team?: string) =>
    trpc(t.app, 'query', 'worklist.list', user.token, team ? { team } : {});
  const ids = (data: unknown) => (data as { items: { id: string }[] }).items.map((i) => i.id);

  beforeAll(async () => {
    port = await freePort();
    const ownerEmail = `teams-owner-${Date.now()}@example.org`;
    t = await createTestApp({
      background: true,
      env: {
        ...TEST_ENV,
        DICOM_PORT: String(port),
        DICOM_AE_TITLE: NODE_AE,
        DICOM_ALLOWED_CALLERS: 'STORESCU@localhost',
        DICOM_OWNER_EMAIL: ownerEmail,
      },
    });
    owner = await createUser(t.deps, { email: ownerEmail });
    [adminA, adminB, stranger] = [await createUser(t.deps), await createUser(t.deps), await createUser(t.deps)];
    teamA = (await createTeam(t.deps, { [adminA.user.id]: 'admin' }, { aeTitle: TEAM_A })).id;
    teamB = (await createTeam(t.deps, { [adminB.user.id]: 'admin' })).id;
    await confirmOwnerForTest(t, owner.user.id);
    await untilNodeAccepts(port, NODE_AE);
    await untilNodeAccepts(port, TEAM_A);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a store to the team's AE title lands in the team: its worklist for a member, 404 for a stranger, not the owner's", async () => {
    const dx = await buildDxInstance({ patientId: 'TEAM-PID-1', patientName: 'TEAM^PATIENT' });
    assert.match(await store(TEAM_A, dx.bytes), /Success/);
    const row = await rowOf(dx.sopInstanceUid);
    assert.equal(row?.teamId, teamA);
    assert.equal(row?.userId, owner.user.id, "the node's owner is the author; the team owns the row");
    assert.equal(row?.status, 'queued');
    const [profile] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, row.profileId!));
    assert.equal(profile?.teamId, teamA, 'the patient profile is the team’s');
    const [mapped] = await t.deps.db.select().from(dicomPatients).where(eq(dicomPatients.profileId, row.profileId!));
    assert.equal(mapped?.teamId, teamA);
    const [analysis] = await t.deps.db.select().from(analyses).where(eq(analyses.id, row.analysisId!));
    assert.equal(analysis?.teamId, teamA);

    const member = await worklist(adminA, teamA);
    assert.equal(member.status, 200, JSON.stringify(member.body));
    assert.deepEqual(ids(member.data), [row.id]);
    const other = await worklist(stranger, teamA);
    assert.equal(other.status, 404);
    assert.equal(other.error?.message, 'Team not found');
    assert.equal((await worklist(adminB, teamA)).status, 404, 'a member of another team');
    const personal = await worklist(owner);
    assert.equal(personal.status, 200);
    assert.deepEqual(ids(personal.data), [], "absent from the owner's personal worklist");
    // The chat is the team's too: a member opens it, the owner (not a member) gets 404.
    const chat = await trpc(t.app, 'query', 'history.get', adminA.token, { chatId: analysis!.chatId });
    assert.equal(chat.status, 200, JSON.stringify(chat.body));
    assert.equal((await trpc(t.app, 'query', 'history.get', owner.token, { chatId: analysis!.chatId })).status, 404);
  });

  test('an unknown called AE title is rejected at association (called AE not recognised), and nothing is stored', async () => {
    const echo = await run('echoscu', ['-aet', 'STORESCU', '-aec', 'NOBODY', '127.0.0.1', String(port)]).then(
      () => 'accepted',
      (e: { stdout: string; stderr: string }) => `${e.stdout}${e.stderr}`,
    );
    assert.match(echo, /Called AE Title Not Recognized/i);
    const dx = await buildDxInstance({ patientId: 'NOBODY-1' });
    assert.match(await store('NOBODY', dx.bytes), /Called AE Title Not Recognized/i);
    assert.equal(await rowOf(dx.sopInstanceUid), undefined);
  });

  test('a study sent to two AE titles lands in one space only: the second space refuses it (0xC000)', async () => {
    // Team B gets its AE title through the admin's procedure; the node reads it within seconds.
    const set = await trpc(t.app, 'mutation', 'team.setAeTitle', adminB.token, { teamId: teamB, aeTitle: 'rad_b' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await untilNodeAccepts(port, TEAM_B, 30_000);

    const studyUid = newUid();
    const first = await buildDxInstance({ patientId: 'TWO-1', studyUid });
    assert.match(await store(TEAM_A, first.bytes), /Success/);
    const second = await buildDxInstance({ patientId: 'TWO-1', studyUid, index: 1 });
    assert.match(await store(TEAM_B, second.bytes), /Error: CannotUnderstand/);
    assert.equal(await rowOf(second.sopInstanceUid), undefined, 'not recorded in team B');
    const third = await buildDxInstance({ patientId: 'TWO-1', studyUid, index: 2 });
    assert.match(await store(NODE_AE, third.bytes), /Error: CannotUnderstand/);
    assert.equal(await rowOf(third.sopInstanceUid), undefined, "not recorded in the owner's personal space");
    // The study's home keeps taking its instances; team B takes other studies.
    const fourth = await buildDxInstance({ patientId: 'TWO-1', studyUid, index: 3 });
    assert.match(await store(TEAM_A, fourth.bytes), /Success/);
    assert.equal((await rowOf(fourth.sopInstanceUid))?.teamId, teamA);
    const own = await buildDxInstance({ patientId: 'B-1' });
    assert.match(await store(TEAM_B, own.bytes), /Success/);
    assert.equal((await rowOf(own.sopInstanceUid))?.teamId, teamB);
    // And a study the node filed for its owner is not taken by a team afterwards.
    const personalStudy = newUid();
    const mine = await buildDxInstance({ patientId: 'OWN-1', studyUid: personalStudy });
    assert.match(await store(NODE_AE, mine.bytes), /Success/);
    const row = await rowOf(mine.sopInstanceUid);
    assert.equal(row?.teamId, null);
    assert.equal(row?.userId, owner.user.id);
    const again = await buildDxInstance({ patientId: 'OWN-1', studyUid: personalStudy, index: 1 });
    assert.match(await store(TEAM_B, again.bytes), /Error: CannotUnderstand/);
  });

  test("a team's AE title removed is refused within seconds; the node's own title cannot be a team's", async () => {
    const own = await trpc(t.app, 'mutation', 'team.setAeTitle', adminB.token, { teamId: teamB, aeTitle: 'cxr_ai' });
    assert.equal(own.status, 409);
    assert.match(own.error?.message ?? '', /node's own AE title/);
    const cleared = await trpc(t.app, 'mutation', 'team.setAeTitle', adminB.token, { teamId: teamB, aeTitle: null });
    assert.equal(cleared.status, 200);
    const end = Date.now() + 30_000;
    for (;;) {
      const accepted = await run('echoscu', ['-aet', 'STORESCU', '-aec', TEAM_B, '127.0.0.1', String(port)]).then(
        () => true,
        () => false,
      );
      if (!accepted) break;
      assert.ok(Date.now() < end, 'the removed AE title is still accepted after 30 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  });
});
