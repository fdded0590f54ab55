import { READ, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/**
 * The radiology report of a colleague's team analysis (issue 41, docs/reports.md): every member
 * reads it; only readers (admin, radiologist) edit the draft, sign it and add addenda; a
 * clinician is refused (403); another team's member sees no such analysis (404).
 */
const READERS: TAnswers = [200, 200, 403, 404, 401];

const SECTIONS = {
  examination: 'Chest radiograph.',
  comparison: 'None.',
  findings: 'Lungs: clear.',
  impression: '1. Normal.',
};

/** The colleague's report signed by its author, so an addendum has something to amend. */
async function signedByAuthor(c: TCallCtx): Promise<string> {
  const id = c.rows.analysisId;
  const status = await restStatus(c.t, 'POST', `/api/analyses/${id}/report/sign`, c.w.users.author.token);
  if (status !== 200) throw new Error(`the author could not sign the report: ${status}`);
  return id;
}

export const reportCases: TCase[] = [
  {
    surface: 'GET /api/analyses/{analysisId}/report',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/analyses/${c.rows.analysisId}/report`, c.token),
  },
  {
    surface: 'PUT /api/analyses/{analysisId}/report',
    variant: 'a draft',
    expect: READERS,
    call: (c) => restStatus(c.t, 'PUT', `/api/analyses/${c.rows.analysisId}/report`, c.token, { sections: SECTIONS }),
  },
  {
    surface: 'POST /api/analyses/{analysisId}/report/sign',
    expect: READERS,
    call: (c) => restStatus(c.t, 'POST', `/api/analyses/${c.rows.analysisId}/report/sign`, c.token),
  },
  {
    surface: 'POST /api/analyses/{analysisId}/report/addenda',
    variant: 'a signed report',
    expect: READERS,
    call: async (c) =>
      restStatus(c.t, 'POST', `/api/analyses/${await signedByAuthor(c)}/report/addenda`, c.token, {
        text: 'Addendum.',
      }),
  },
  {
    surface: 'query report.get',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'report.get', c.token, { analysisId: c.rows.analysisId }),
  },
  {
    surface: 'mutation report.edit',
    variant: 'a draft',
    expect: READERS,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'report.edit', c.token, { analysisId: c.rows.analysisId, sections: SECTIONS }),
  },
  {
    surface: 'mutation report.sign',
    expect: READERS,
    call: (c) => trpcStatus(c.t, 'mutation', 'report.sign', c.token, { analysisId: c.rows.analysisId }),
  },
  {
    surface: 'mutation report.addAddendum',
    variant: 'a signed report',
    expect: READERS,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'report.addAddendum', c.token, {
        analysisId: await signedByAuthor(c),
        text: 'Addendum.',
      }),
  },
];
