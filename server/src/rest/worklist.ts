import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  WORKLIST_MESSAGES,
  ZUrgency,
  ZNextStudy,
  ZNextStudyInput,
  ZWorklist,
  ZWorklistInput,
  ZWorklistStatus,
  ZWorklistStudyState,
} from '@contracts/schemas/worklist.js';
import { listWorklist } from '../services/dicom-node/list-worklist.js';
import { claimStudy } from '../services/worklist/claim-study.js';
import { openNextStudy } from '../services/worklist/open-next-study.js';
import { releaseStudy } from '../services/worklist/release-study.js';
import { reviewStudy } from '../services/worklist/review-study.js';
import { envelope, errorResponse } from './openapi/responses.js';

const tags = ['worklist'];
const config = { auth: 'user' } as const;
const ZStudyParams = z.object({ studyId: z.string().max(100) });
/** A comma-separated query value as a list (`?status=analysed,sent`). */
const commaList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' && v !== '' ? v.split(',') : undefined), z.array(item).max(6).optional());
const ZListQuery = ZWorklistInput.omit({ statuses: true, urgencies: true, reviewed: true, limit: true }).extend({
  status: commaList(ZWorklistStatus).describe('Comma-separated statuses, e.g. analysed,sent'),
  urgency: commaList(ZUrgency).describe('Comma-separated urgencies, e.g. urgent,review'),
  reviewed: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
const studyErrors = {
  403: errorResponse(`${WORKLIST_MESSAGES.readersOnly} (clinicians); or a cross-site request`),
  404: errorResponse(WORKLIST_MESSAGES.notFound),
};

/** /api/worklist: the team worklist (issue 32) beside the tRPC `worklist` procedures, same services. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Studies from the DICOM network, most urgent first, one keyset page (team: a team you belong to)',
        querystring: ZListQuery,
        response: { 200: envelope(ZWorklist), 404: errorResponse('Team not found') },
      },
    },
    async (req) => {
      const { status, urgency, reviewed, ...rest } = req.query;
      const input = {
        ...rest,
        statuses: status,
        urgencies: urgency,
        reviewed: reviewed === undefined ? undefined : reviewed === 'true',
      };
      const data = await listWorklist({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return { success: true as const, data };
    },
  );

  app.post(
    '/:studyId/claim',
    {
      config,
      schema: {
        tags,
        summary: 'Claim a team study ("being read by …"); free again after WORKLIST_CLAIM_TIMEOUT_MINUTES',
        params: ZStudyParams,
        response: {
          200: envelope(ZWorklistStudyState),
          400: errorResponse(WORKLIST_MESSAGES.personalClaim),
          ...studyErrors,
          409: errorResponse('Being read by another reader: the message names them'),
        },
      },
    },
    async (req) => {
      const data = await claimStudy({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        id: req.params.studyId,
      });
      return { success: true as const, message: WORKLIST_MESSAGES.claimed, data };
    },
  );

  app.delete(
    '/:studyId/claim',
    {
      config,
      schema: {
        tags,
        summary: 'Release a claim (the reader who holds it, or a team admin)',
        params: ZStudyParams,
        response: {
          200: envelope(ZWorklistStudyState),
          400: errorResponse(WORKLIST_MESSAGES.personalClaim),
          ...studyErrors,
        },
      },
    },
    async (req) => {
      const data = await releaseStudy({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        id: req.params.studyId,
      });
      return { success: true as const, message: WORKLIST_MESSAGES.released, data };
    },
  );

  app.post(
    '/next',
    {
      config,
      schema: {
        tags,
        summary:
          'Open the next study: the most urgent analysed one nobody has read or claimed; in a team it is claimed for you (data null: none left)',
        body: ZNextStudyInput.optional(),
        response: { 200: envelope(ZNextStudy), ...studyErrors, 404: errorResponse('Team not found') },
      },
    },
    async (req) => {
      const input = { team: req.body?.team ?? null };
      const data = await openNextStudy({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return { success: true as const, data };
    },
  );

  app.post(
    '/:studyId/review',
    {
      config,
      schema: {
        tags,
        summary:
          'Mark a study reviewed ({"reviewed": false} takes the mark back): a team study needs your claim, which it ends',
        params: ZStudyParams,
        body: z.object({ reviewed: z.boolean().default(true) }).optional(),
        response: {
          200: envelope(ZWorklistStudyState),
          ...studyErrors,
          409: errorResponse('Being read by another reader (the message names them), or not claimed by you yet'),
        },
      },
    },
    async (req) => {
      const reviewed = req.body?.reviewed ?? true;
      const input = { id: req.params.studyId, reviewed };
      const data = await reviewStudy({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return {
        success: true as const,
        message: reviewed ? WORKLIST_MESSAGES.reviewed : WORKLIST_MESSAGES.unreviewed,
        data,
      };
    },
  );
};

export default routes;
