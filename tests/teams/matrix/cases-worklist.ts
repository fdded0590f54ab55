import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../../server/src/db/schema.js';
import { finding, resultOf, seedStudies } from '../../worklist/seed-studies.js';
import { ANYONE, READ, SIGNED_IN, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/**
 * The team's worklist (claims and review, docs/teams.md) and the DICOM node's owner confirmation.
 * Claiming and review are for readers: a clinician is refused (403), another team's member sees
 * no such study (404).
 */

/** Readers (admin, radiologist) may; a clinician is refused; another team 404. */
const READERS: TAnswers = [200, 200, 403, 404, 401];
/** Releasing a colleague's claim: only an admin may (a radiologist releases only their own). */
const RELEASE_COLLEAGUES: TAnswers = [200, 403, 403, 404, 401];

/** A study in the team's worklist, made by the author; `claimed`: the author is reading it. */
async function teamStudy(c: TCallCtx, claimed: boolean): Promise<string> {
  const [id] = await seedStudies(c.t.deps, { userId: c.w.users.author.user.id, teamId: c.w.teamId }, [
    { status: 'analysed', result: resultOf(finding('edema', 0.01, 0.025, 'negative')), createdAt: new Date() },
  ]);
  if (!id) throw new Error('no study seeded');
  if (claimed) {
    const status = await trpcStatus(c.t, 'mutation', 'worklist.claim', c.w.users.author.token, { id });
    if (status !== 200) throw new Error(`the author could not claim the study: ${status}`);
  }
  return id;
}

/**
 * A study the caller has tried to claim first ("Mark reviewed" is the claim holder's, issue 41): a
 * reader holds it; a clinician's or an outsider's claim is refused and the review after it too.
 */
async function claimedByCaller(c: TCallCtx): Promise<string> {
  const id = await teamStudy(c, false);
  await trpcStatus(c.t, 'mutation', 'worklist.claim', c.token, { id });
  return id;
}

export const worklistCases: TCase[] = [
  {
    surface: 'query worklist.list',
    variant: '{team}',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'worklist.list', c.token, { team: c.w.teamId }),
  },
  {
    surface: 'GET /api/worklist',
    variant: '?team=',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/worklist?team=${c.w.teamId}`, c.token),
  },
  {
    surface: 'query worklist.study',
    variant: "the viewer's reading bar",
    expect: READ,
    call: async (c) => {
      const id = await teamStudy(c, true);
      const [row] = await c.t.deps.db
        .select({ analysisId: dicomInstances.analysisId })
        .from(dicomInstances)
        .where(eq(dicomInstances.id, id));
      return trpcStatus(c.t, 'query', 'worklist.study', c.token, { analysisId: row?.analysisId });
    },
  },
  {
    surface: 'POST /api/worklist/{studyId}/claim',
    expect: READERS,
    call: async (c) => restStatus(c.t, 'POST', `/api/worklist/${await teamStudy(c, false)}/claim`, c.token),
  },
  {
    surface: 'DELETE /api/worklist/{studyId}/claim',
    variant: "a colleague's claim",
    expect: RELEASE_COLLEAGUES,
    call: async (c) => restStatus(c.t, 'DELETE', `/api/worklist/${await teamStudy(c, true)}/claim`, c.token),
  },
  {
    surface: 'POST /api/worklist/{studyId}/review',
    variant: 'after claiming it',
    expect: READERS,
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/worklist/${await claimedByCaller(c)}/review`, c.token, { reviewed: true }),
  },
  {
    surface: 'POST /api/worklist/{studyId}/review',
    variant: "a colleague's claim",
    expect: [409, 409, 403, 404, 401],
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/worklist/${await teamStudy(c, true)}/review`, c.token, { reviewed: true }),
  },
  {
    surface: 'mutation worklist.claim',
    expect: READERS,
    call: async (c) => trpcStatus(c.t, 'mutation', 'worklist.claim', c.token, { id: await teamStudy(c, false) }),
  },
  {
    surface: 'mutation worklist.release',
    variant: "a colleague's claim",
    expect: RELEASE_COLLEAGUES,
    call: async (c) => trpcStatus(c.t, 'mutation', 'worklist.release', c.token, { id: await teamStudy(c, true) }),
  },
  {
    surface: 'mutation worklist.review',
    variant: 'unclaimed',
    expect: [409, 409, 403, 404, 401],
    call: async (c) => trpcStatus(c.t, 'mutation', 'worklist.review', c.token, { id: await teamStudy(c, false) }),
  },
  {
    surface: 'mutation worklist.review',
    variant: 'after claiming it',
    expect: READERS,
    call: async (c) => trpcStatus(c.t, 'mutation', 'worklist.review', c.token, { id: await claimedByCaller(c) }),
  },
  {
    surface: 'POST /api/worklist/next',
    variant: '{team}',
    expect: READERS,
    call: async (c) => {
      await teamStudy(c, false);
      return restStatus(c.t, 'POST', '/api/worklist/next', c.token, { team: c.w.teamId });
    },
  },
  {
    surface: 'mutation worklist.next',
    variant: '{team}',
    expect: READERS,
    call: async (c) => {
      await teamStudy(c, false);
      return trpcStatus(c.t, 'mutation', 'worklist.next', c.token, { team: c.w.teamId });
    },
  },
  {
    surface: 'GET /api/dicom-owner/confirm',
    variant: 'a token nobody was sent',
    expect: ANYONE(400),
    call: (c) => restStatus(c.t, 'GET', '/api/dicom-owner/confirm?token=nope', c.token),
  },
  {
    surface: 'query dicomOwner.state',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'query', 'dicomOwner.state', c.token),
  },
  {
    surface: 'mutation dicomOwner.requestConfirmation',
    variant: 'not the DICOM_OWNER_EMAIL account',
    expect: SIGNED_IN(403),
    call: (c) => trpcStatus(c.t, 'mutation', 'dicomOwner.requestConfirmation', c.token),
  },
];
