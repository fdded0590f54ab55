import assert from 'node:assert/strict';
import type { TReport } from '@contracts/schemas/report.js';
import { bearer } from './factories.js';
import type { sessionCaller } from './session-caller.js';
import type { TestApp } from './test-app.js';

type TCaller = ReturnType<typeof sessionCaller>;

/**
 * Signs as a reader does (issue 49): the report read first, its revision sent back with the
 * signature. A team study must be claimed by the caller before (issue 46 M3).
 */
export async function signAtRevision(caller: TCaller, analysisId: string): Promise<TReport> {
  const { revision } = await caller.report.get({ analysisId });
  return caller.report.sign({ analysisId, revision });
}

/** An addendum to a signed report, at the revision just read. */
export async function addendumAtRevision(caller: TCaller, analysisId: string, text: string): Promise<TReport> {
  const { revision } = await caller.report.get({ analysisId });
  return caller.report.addAddendum({ analysisId, revision, text });
}

/** One call to a study's report over REST (`path` after `/report`): the report it answers, a 200 checked. */
export type TReportRest = (
  analysisId: string,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  payload?: object,
) => Promise<TReport>;

/** The report's REST paths as the reader whose token this is calls them from the browser. */
export function reportRest(t: TestApp, token: string): TReportRest {
  return async (analysisId, method, path, payload) => {
    const res = await t.app.inject({
      method,
      url: `/api/analyses/${analysisId}/report${path}`,
      headers: bearer(token),
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: TReport }).data;
  };
}

/**
 * A reader's edit then signature over REST, each at the revision it was read at (issue 49): the
 * draft's sections with `edit` laid over them are saved, then signed.
 */
export async function editAndSignRest(
  report: TReportRest,
  analysisId: string,
  edit: Partial<TReport['sections']>,
): Promise<TReport> {
  const draft = await report(analysisId, 'GET', '');
  const saved = await report(analysisId, 'PUT', '', {
    sections: { ...draft.sections, ...edit },
    revision: draft.revision,
  });
  return report(analysisId, 'POST', '/sign', { revision: saved.revision });
}
