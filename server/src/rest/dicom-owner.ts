import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DICOM_OWNER_MESSAGES } from '@contracts/schemas/dicom-owner.js';
import { confirmDicomOwner } from '../services/dicom-node/confirm-dicom-owner.js';
import { errorResponse, ZOk } from './openapi/responses.js';

/**
 * The link in the DICOM node owner's confirmation e-mail (issue 36, S11). The token is the proof,
 * so no sign-in is needed; the browser lands on Settings. Asking for a link is tRPC's
 * dicomOwner.requestConfirmation (a session's call, as Settings makes it).
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.get(
    '/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['dicom'],
        summary: "Confirm DICOM_OWNER_EMAIL's account from the e-mailed link; the DICOM node then accepts studies",
        querystring: z.object({ token: z.string().max(200) }),
        response: {
          303: ZOk.describe('Confirmed: on to /settings (Location)'),
          400: errorResponse(DICOM_OWNER_MESSAGES.invalid),
        },
      },
    },
    async (req, reply) => {
      await confirmDicomOwner({ ...deps, meta: req.meta(), token: req.query.token });
      return reply
        .code(303)
        .header('location', '/settings')
        .send({ success: true as const, message: DICOM_OWNER_MESSAGES.confirmed });
    },
  );
};

export default routes;
