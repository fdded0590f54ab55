import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  REPORT_MESSAGES,
  ZAddendumBody,
  ZEditReportBody,
  ZReport,
  ZSignReportBody,
  type TReport,
} from '@contracts/schemas/report.js';
import type { AppDeps, RequestMeta } from '../deps.js';
import { addAddendum } from '../services/report/add-addendum.js';
import { editReport } from '../services/report/edit-report.js';
import { getReport } from '../services/report/get-report.js';
import { signReport } from '../services/report/sign-report.js';
import { envelope, errorResponse } from './openapi/responses.js';

const tags = ['report'];
const config = { auth: 'user' } as const;
/** The analysis id is the JSON export's `analysis.id`. */
const params = z.object({ analysisId: z.string().max(100) });
const notFound = {
  404: errorResponse(`${REPORT_MESSAGES.notFound}: no finished analysis, or one you cannot read (same answer)`),
};
const readersOnly = { 403: errorResponse(`${REPORT_MESSAGES.readersOnly} (clinicians); or a cross-site request`) };

/** Who asks, about which analysis: what every report service takes besides the deps. */
interface TReportCall extends Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> {
  meta: RequestMeta;
  userId: string;
  analysisId: string;
}

/** One route of the table: all answer the report, and differ only in what they send and say. */
interface TReportRoute<B extends z.ZodType> {
  method: 'GET' | 'PUT' | 'POST';
  url: string;
  summary: string;
  body?: B;
  /** A write's 409 (the report's state forbids it); a write also answers 403 to a reader. */
  conflict?: string;
  /** The envelope's message on success (a read has none). */
  message?: string;
  // A method, not a property: its body parameter is then bivariant, so the table holds any B.
  run(call: TReportCall, body: z.output<B>): Promise<TReport>;
}

/** The 409s of a save or a signature (issues 46 M3, 49). */
const STALE_OR_CLAIMED = [
  REPORT_MESSAGES.signed,
  'This report was changed by <name> at <time>: reload it to see their changes (the revision sent is stale)',
  REPORT_MESSAGES.heldBy('<name>'),
  REPORT_MESSAGES.claimFirst,
].join('; or ');

const route = <B extends z.ZodType = z.ZodUndefined>(r: TReportRoute<B>): TReportRoute<B> => r;

const ROUTES: TReportRoute<z.ZodType>[] = [
  route({
    method: 'GET',
    url: '/:analysisId/report',
    summary: "The analysis's radiology report: the draft, or the signed report with its addenda",
    run: (call) => getReport(call),
  }),
  route({
    method: 'PUT',
    url: '/:analysisId/report',
    summary: "Save the draft's sections (a radiologist or admin of the team, or the personal study's owner)",
    body: ZEditReportBody,
    conflict: STALE_OR_CLAIMED,
    message: REPORT_MESSAGES.saved,
    run: (call, body) =>
      editReport({
        ...call,
        input: { analysisId: call.analysisId, revision: body.revision, sections: body.sections },
      }),
  }),
  route({
    method: 'POST',
    url: '/:analysisId/report/sign',
    summary: 'Sign the report: final and immutable from now on; recorded in the audit log',
    body: ZSignReportBody,
    conflict: STALE_OR_CLAIMED,
    message: REPORT_MESSAGES.signedOk,
    run: (call, body) => signReport({ ...call, input: { analysisId: call.analysisId, revision: body.revision } }),
  }),
  route({
    method: 'POST',
    url: '/:analysisId/report/addenda',
    summary: 'Add a signed addendum to a signed report (it then reads amended)',
    body: ZAddendumBody,
    conflict: `${REPORT_MESSAGES.notSigned}; or "This report was changed by <name> at <time>: reload it to see their changes" (a stale revision)`,
    message: REPORT_MESSAGES.addendumAdded,
    run: (call, body) =>
      addAddendum({ ...call, input: { analysisId: call.analysisId, revision: body.revision, text: body.text } }),
  }),
];

/** /api/analyses/{id}/report (issue 41) beside the tRPC `report` procedures, same services. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  for (const r of ROUTES) {
    const refusals = r.conflict ? { ...readersOnly, ...notFound, 409: errorResponse(r.conflict) } : notFound;
    app.route({
      method: r.method,
      url: r.url,
      config,
      schema: {
        tags,
        summary: r.summary,
        params,
        ...(r.body ? { body: r.body } : {}),
        response: { 200: envelope(ZReport), ...refusals },
      },
      handler: async (req) => {
        const call = { ...deps, meta: req.meta(), userId: req.signedIn().userId, analysisId: req.params.analysisId };
        // The body was parsed by r.body (the zod validator compiler) before the handler runs.
        const data = await r.run(call, req.body);
        return r.message ? { success: true as const, message: r.message, data } : { success: true as const, data };
      },
    });
  }
};

export default routes;
