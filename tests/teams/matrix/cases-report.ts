import type { TReport } from '@contracts/schemas/report.js';
import { READ, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/**
 * The radiology report of a colleague's team analysis (issue 41, docs/reports.md): every member
 * reads it; only readers (admin, radiologist) edit the draft, sign it and add addenda; a
 * clinician is refused (403); another team's member sees no such analysis (404). A team study's
 * draft is saved and signed by the reader holding its claim (issue 46 M3): another reader's claim
 * is 409 naming them. Every write names the revision it was read at (issue 49). A chat whose
 * report is signed cannot be deleted by anyone (issue 46 H4): 409 where deleting was allowed.
 */
const READERS: TAnswers = [200, 200, 403, 404, 401];
/** The study claimed by another reader: readers are refused with the holder's name (409). */
const HELD: TAnswers = [409, 409, 403, 404, 401];
/** A colleague's chat with a signed report: readers could delete the chat, but not its signed report. */
const SIGNED_COLLEAGUES: TAnswers = [409, 409, 404, 404, 401];
/** Their own chat with a signed report: refused to every member; another team's member reaches the colleague's. */
const SIGNED_OWN: TAnswers = [409, 409, 409, 404, 401];

const SECTIONS = {
  examination: 'Chest radiograph.',
  comparison: 'None.',
  findings: 'Lungs: clear.',
  impression: '1. Normal.',
};

/** The report as the author (a radiologist of the team) reads it: its revision for the next write. */
async function readByAuthor(c: TCallCtx, analysisId: string): Promise<TReport> {
  const res = await c.t.app.inject({
    method: 'GET',
    url: `/api/analyses/${analysisId}/report`,
    headers: { authorization: `Bearer ${c.w.users.author.token}` },
  });
  if (res.statusCode !== 200) throw new Error(`the author could not read the report: ${res.statusCode}`);
  return (res.json() as { data: TReport }).data;
}

/** `who` claims the study (a team upload's id is its analysis); a refusal is left to the call that follows. */
const claimAs = (c: TCallCtx, token: string | null, analysisId: string) =>
  restStatus(c.t, 'POST', `/api/worklist/${analysisId}/claim`, token);

/** The author claims the study, so the caller is "another reader". */
async function claimedByAuthor(c: TCallCtx, analysisId: string): Promise<number> {
  const status = await claimAs(c, c.w.users.author.token, analysisId);
  if (status !== 200) throw new Error(`the author could not claim the study: ${status}`);
  return (await readByAuthor(c, analysisId)).revision;
}

/** The caller tries to claim the study first (readers hold it then); the revision to write at. */
async function claimedByCaller(c: TCallCtx): Promise<number> {
  await claimAs(c, c.token, c.rows.analysisId);
  return (await readByAuthor(c, c.rows.analysisId)).revision;
}

/** The report signed by the author (claimed, at its revision); its revision after the signature. */
async function signedByAuthor(c: TCallCtx, analysisId = c.rows.analysisId): Promise<number> {
  const revision = await claimedByAuthor(c, analysisId);
  const status = await restStatus(c.t, 'POST', `/api/analyses/${analysisId}/report/sign`, c.w.users.author.token, {
    revision,
  });
  if (status !== 200) throw new Error(`the author could not sign the report: ${status}`);
  return revision + 1;
}

export const reportCases: TCase[] = [
  {
    surface: 'GET /api/analyses/{analysisId}/report',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/analyses/${c.rows.analysisId}/report`, c.token),
  },
  {
    surface: 'PUT /api/analyses/{analysisId}/report',
    variant: 'a draft the caller claimed',
    expect: READERS,
    call: async (c) =>
      restStatus(c.t, 'PUT', `/api/analyses/${c.rows.analysisId}/report`, c.token, {
        sections: SECTIONS,
        revision: await claimedByCaller(c),
      }),
  },
  {
    surface: 'PUT /api/analyses/{analysisId}/report',
    variant: 'a draft another reader claimed',
    expect: HELD,
    call: async (c) =>
      restStatus(c.t, 'PUT', `/api/analyses/${c.rows.analysisId}/report`, c.token, {
        sections: SECTIONS,
        revision: await claimedByAuthor(c, c.rows.analysisId),
      }),
  },
  {
    surface: 'POST /api/analyses/{analysisId}/report/sign',
    variant: 'a draft the caller claimed',
    expect: READERS,
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/analyses/${c.rows.analysisId}/report/sign`, c.token, {
        revision: await claimedByCaller(c),
      }),
  },
  {
    surface: 'POST /api/analyses/{analysisId}/report/sign',
    variant: 'a draft another reader claimed',
    expect: HELD,
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/analyses/${c.rows.analysisId}/report/sign`, c.token, {
        revision: await claimedByAuthor(c, c.rows.analysisId),
      }),
  },
  {
    surface: 'POST /api/analyses/{analysisId}/report/addenda',
    variant: 'a signed report',
    expect: READERS,
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/analyses/${c.rows.analysisId}/report/addenda`, c.token, {
        text: 'Addendum.',
        revision: await signedByAuthor(c),
      }),
  },
  {
    surface: 'query report.get',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'report.get', c.token, { analysisId: c.rows.analysisId }),
  },
  {
    surface: 'mutation report.edit',
    variant: 'a draft the caller claimed',
    expect: READERS,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.edit', c.token, {
        analysisId: c.rows.analysisId,
        revision: await claimedByCaller(c),
        sections: SECTIONS,
      }),
  },
  {
    surface: 'mutation report.edit',
    variant: 'a draft another reader claimed',
    expect: HELD,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.edit', c.token, {
        analysisId: c.rows.analysisId,
        revision: await claimedByAuthor(c, c.rows.analysisId),
        sections: SECTIONS,
      }),
  },
  {
    surface: 'mutation report.sign',
    variant: 'a draft the caller claimed',
    expect: READERS,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.sign', c.token, {
        analysisId: c.rows.analysisId,
        revision: await claimedByCaller(c),
      }),
  },
  {
    surface: 'mutation report.sign',
    variant: 'a draft another reader claimed',
    expect: HELD,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.sign', c.token, {
        analysisId: c.rows.analysisId,
        revision: await claimedByAuthor(c, c.rows.analysisId),
      }),
  },
  {
    surface: 'mutation report.addAddendum',
    variant: 'a signed report',
    expect: READERS,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.addAddendum', c.token, {
        analysisId: c.rows.analysisId,
        revision: await signedByAuthor(c),
        text: 'Addendum.',
      }),
  },
  {
    surface: 'DELETE /api/history/delete',
    variant: "a colleague's chat whose report is signed",
    expect: SIGNED_COLLEAGUES,
    call: async (c) => {
      await signedByAuthor(c);
      return restStatus(c.t, 'DELETE', '/api/history/delete', c.token, { chat_id: c.rows.chatId });
    },
  },
  {
    surface: 'DELETE /api/history/delete',
    variant: 'a chat the caller made, its report signed',
    expect: SIGNED_OWN,
    call: async (c) => {
      const own = await c.own();
      await signedByAuthor(c, own.analysisId);
      return restStatus(c.t, 'DELETE', '/api/history/delete', c.token, { chat_id: own.chatId });
    },
  },
  {
    surface: 'mutation history.delete',
    variant: "a colleague's chat whose report is signed",
    expect: SIGNED_COLLEAGUES,
    call: async (c) => {
      await signedByAuthor(c);
      return trpcStatus(c.t, 'mutation', 'history.delete', c.token, { chatId: c.rows.chatId });
    },
  },
];
