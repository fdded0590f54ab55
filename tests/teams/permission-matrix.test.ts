import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { chats, patientProfiles } from '../../server/src/db/schema.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { appRouter } from '../../server/src/trpc/router.js';
import { DEFAULT_PASSWORD } from '../helpers/factories.js';
import { registeredApiRoutes } from '../helpers/list-api-routes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { limitInFlight } from '../helpers/limit-in-flight.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_ENV } from '../history/http.js';
import { accountCases } from './matrix/cases-account.js';
import { modelCases } from './matrix/cases-models.js';
import { patientDataCases } from './matrix/cases-patient-data.js';
import { reportCases } from './matrix/cases-report.js';
import { studyCases } from './matrix/cases-studies.js';
import { teamCases } from './matrix/cases-teams.js';
import { worklistCases } from './matrix/cases-worklist.js';
import { TEAM_KEY_REFUSED, type TCase } from './matrix/matrix-case.js';
import { ACTORS, seedRows, seedWorld, type TActor, type TRows, type TWorld } from './matrix/matrix-world.js';
import { renderMatrix, withMatrix } from './matrix/render-matrix.js';

/**
 * The permission matrix of issue 32: every REST route, every tRPC procedure (batched too),
 * subscriptions over SSE, image and heatmap files, exports, DICOMweb and the worklist × {team
 * admin, radiologist, clinician, member of another team, no account} → the answer. The surfaces
 * are read from the app itself (Fastify's route tree, the tRPC router's procedures), so a route
 * or procedure added without a row here fails the first test. docs/teams.md shows the same
 * table (UPDATE_MATRIX_DOCS=1 rewrites it from this one).
 */
const CASES: readonly TCase[] = [
  ...patientDataCases,
  ...studyCases,
  ...worklistCases,
  ...reportCases,
  ...teamCases,
  ...accountCases,
  ...modelCases,
];
const DOC = new URL('../../docs/teams.md', import.meta.url);

/** The security limits would answer 429 long before the matrix's sign-ups and resets are done. */
const OPEN_LIMITS = {
  AUTH_ATTEMPTS_PER_IP_PER_MINUTE: '100000',
  SIGNUPS_PER_IP_PER_HOUR: '100000',
  RESET_REQUESTS_PER_IP_PER_HOUR: '100000',
  LOGIN_FAILURES_PER_IP: '100000',
};

/** Every surface the app has: "METHOD /path/{param}" and "query|mutation|subscription a.b". */
function surfacesOf(t: TestApp): string[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def
    .procedures;
  return [
    ...registeredApiRoutes(t.app, ['/api/', '/dicomweb/']),
    ...Object.entries(procedures).map(([path, p]) => `${p._def.type} ${path}`),
    // The same procedures, several in one request, as the web client's batch link sends them.
    'batch query',
    'batch mutation',
  ].sort();
}

/**
 * A team key made just before its call: an earlier actor's call may have revoked the admin's keys
 * (a password change does), which would answer 401 instead of what the key itself gets.
 */
async function freshTeamKey(t: TestApp, w: TWorld): Promise<string> {
  const made = await createApiKey({
    db: t.deps.db,
    meta: null,
    userId: w.users.admin.user.id,
    teamId: w.teamId,
    name: 'pacs',
  });
  return made.key;
}

/** The colleague's profile and chat as stored (absent: deleted). */
async function colleagueRows(t: TestApp, rows: TRows) {
  const [profile] = await t.deps.db
    .select({ name: patientProfiles.fullName, age: patientProfiles.age })
    .from(patientProfiles)
    .where(eq(patientProfiles.id, rows.profileId));
  const [chat] = await t.deps.db.select({ title: chats.title }).from(chats).where(eq(chats.id, rows.chatId));
  return { profile, chat };
}

/**
 * Rows in flight at once: a case makes at most five queries at a time (seedWorld's five users),
 * so four cases stay within the database pool's 20 connections (server/src/db/client.ts).
 */
const IN_FLIGHT = 4;

/**
 * Cases that only read (REST GETs, tRPC queries, batched queries) change nothing another case
 * could see, so they share one world and one set of the colleague's rows, seeded once per file.
 * Every other case (a write, or a subscription whose set-up asks a question) gets a world of its
 * own, so its deletes, role changes or account deletion cannot change what another case sees.
 */
const readsOnly = (c: TCase) => /^(GET |query |batch query$)/.test(c.surface);

/**
 * Rows whose call enqueues an analysis run alone, before the others: the server answers 503 when
 * an enqueue takes over a second (enqueue-analysis.ts), and other rows' work in the same process
 * could hold it up that long on a loaded machine.
 */
const runsAlone = (c: TCase) => /^POST \/(api\/chat\/(analyzer|upload)|dicomweb\/studies)$/.test(c.surface);

/** Where a case calls: its world, the colleague's rows for each actor, an actor's own rows. */
interface TStage {
  w: TWorld;
  rows(): Promise<TRows>;
  own(actor: TActor, userId: string): Promise<TRows>;
  teamKey(): Promise<string>;
}

/** A world of the case's own: fresh rows for every actor, as each call may change them. */
async function freshStage(t: TestApp): Promise<TStage> {
  const w = await seedWorld(t);
  return {
    w,
    rows: () => seedRows(t, w.teamId, w.users.author.user.id),
    own: (_actor, userId) => seedRows(t, w.teamId, userId),
    teamKey: () => freshTeamKey(t, w),
  };
}

/**
 * The readers' world: one set of the colleague's rows, each actor's own rows made once, and one
 * team key (no read revokes keys, and an account may hold only so many).
 */
async function sharedStage(t: TestApp): Promise<TStage> {
  const w = await seedWorld(t);
  const rows = await seedRows(t, w.teamId, w.users.author.user.id);
  const owned = new Map<TActor, Promise<TRows>>();
  const key = await freshTeamKey(t, w);
  return {
    w,
    rows: () => Promise.resolve(rows),
    own: (actor, userId) => {
      const made = owned.get(actor) ?? seedRows(t, w.teamId, userId);
      owned.set(actor, made);
      return made;
    },
    teamKey: () => Promise.resolve(key),
  };
}

for (const backend of testBackends()) {
  describe(`permission matrix on ${backend}`, () => {
    let t: TestApp;
    let readers: TStage;
    const inFlight = limitInFlight(IN_FLIGHT);

    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...TEST_ENV, ...OPEN_LIMITS } });
      readers = await sharedStage(t);
    });
    afterAll(async () => {
      await t.close();
    });

    test('every route and procedure of the app has a row, and every row names one the app has', async () => {
      const app = surfacesOf(t);
      const table = new Set(CASES.map((c) => c.surface));
      assert.deepEqual(
        app.filter((s) => !table.has(s)),
        [],
        'missing from the matrix',
      );
      assert.deepEqual(
        [...table].filter((s) => !app.includes(s)),
        [],
        'rows for surfaces the app no longer has',
      );
      const doc = await readFile(DOC, 'utf8');
      const rendered = withMatrix(doc, renderMatrix(CASES));
      if (process.env.UPDATE_MATRIX_DOCS === '1') await writeFile(DOC, rendered);
      else assert.equal(doc, rendered, 'docs/teams.md shows another matrix: run with UPDATE_MATRIX_DOCS=1');
    });

    for (const c of [...CASES.filter(runsAlone), ...CASES.filter((r) => !runsAlone(r))]) {
      const name = `${c.surface}${c.variant ? ` (${c.variant})` : ''}`;
      // Each row's actors still call one after another (an earlier actor's call may change what
      // a later one meets); the rows themselves run side by side, IN_FLIGHT at a time.
      (runsAlone(c) ? test : test.concurrent)(`${name}: ${c.expect.join(' ')}`, { timeout: 120_000 }, () =>
        inFlight(async () => {
          const stage = readsOnly(c) ? readers : await freshStage(t);
          const w = stage.w;
          const answers: number[] = [];
          for (const actor of ACTORS) {
            const rows = await stage.rows();
            const before = await colleagueRows(t, rows);
            // The team key acts for its creator (the admin) as far as it acts at all: STOW-RS.
            const user = actor === 'anon' ? null : w.users[actor === 'teamKey' ? 'admin' : actor];
            const member = actor !== 'anon' && actor !== 'otherTeam' && actor !== 'teamKey';
            let own: TRows | null = null;
            const answer = await c.call({
              t,
              w,
              actor,
              token: actor === 'teamKey' ? await stage.teamKey() : (user?.token ?? null),
              self: user?.user.id ?? randomUUID(),
              password: user?.password ?? DEFAULT_PASSWORD,
              rows,
              own: async () => (own ??= member && user ? await stage.own(actor, user.user.id) : rows),
            });
            answers.push(answer);
            // A refused call changes nothing of the colleague's.
            if (answer >= 400)
              assert.deepEqual(await colleagueRows(t, rows), before, `${actor} was refused but changed rows`);
          }
          assert.deepEqual(answers, [...c.expect, c.teamKey ?? TEAM_KEY_REFUSED], `answers for ${ACTORS.join(', ')}`);
        }),
      );
    }
  });
}
