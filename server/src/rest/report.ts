import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REPORT_MESSAGES, ZAddendumText, ZReport, ZReportSections } from '@contracts/schemas/report.js';
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

/** /api/analyses/{id}/report (issue 41) beside the tRPC `report` procedures, same services. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '/:analysisId/report',
    {
      config,
      schema: {
        tags,
        summary: "The analysis's radiology report: the draft, or the signed report with its addenda",
        params,
        response: { 200: envelope(ZReport), ...notFound },
      },
    },
    async (req) => {
      const analysisId = req.params.analysisId;
      const data = await getReport({ ...deps, meta: req.meta(), userId: req.signedIn().userId, analysisId });
      return { success: true as const, data };
    },
  );

  app.put(
    '/:analysisId/report',
    {
      config,
      schema: {
        tags,
        summary: "Save the draft's sections (a radiologist or admin of the team, or the personal study's owner)",
        params,
        body: z.object({ sections: ZReportSections }),
        response: {
          200: envelope(ZReport),
          ...readersOnly,
          ...notFound,
          409: errorResponse(REPORT_MESSAGES.signed),
        },
      },
    },
    async (req) => {
      const input = { analysisId: req.params.analysisId, sections: req.body.sections };
      const data = await editReport({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return { success: true as const, message: REPORT_MESSAGES.saved, data };
    },
  );

  app.post(
    '/:analysisId/report/sign',
    {
      config,
      schema: {
        tags,
        summary: 'Sign the report: final and immutable from now on; recorded in the audit log',
        params,
        response: {
          200: envelope(ZReport),
          ...readersOnly,
          ...notFound,
          409: errorResponse(REPORT_MESSAGES.signed),
        },
      },
    },
    async (req) => {
      const analysisId = req.params.analysisId;
      const data = await signReport({ ...deps, meta: req.meta(), userId: req.signedIn().userId, analysisId });
      return { success: true as const, message: REPORT_MESSAGES.signedOk, data };
    },
  );

  app.post(
    '/:analysisId/report/addenda',
    {
      config,
      schema: {
        tags,
        summary: 'Add a signed addendum to a signed report (it then reads amended)',
        params,
        body: z.object({ text: ZAddendumText }),
        response: {
          200: envelope(ZReport),
          ...readersOnly,
          ...notFound,
          409: errorResponse(REPORT_MESSAGES.notSigned),
        },
      },
    },
    async (req) => {
      const input = { analysisId: req.params.analysisId, text: req.body.text };
      const data = await addAddendum({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return { success: true as const, message: REPORT_MESSAGES.addendumAdded, data };
    },
  );
};

export default routes;
