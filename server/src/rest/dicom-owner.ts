import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DICOM_OWNER_MESSAGES } from '@contracts/schemas/dicom-owner.js';
import { confirmDicomOwner } from '../services/dicom-node/confirm-dicom-owner.js';
import { landMailedLink, ZMailedLinkLanded } from './land-mailed-link.js';
import { errorResponse } from './openapi/responses.js';

/**
 * The link in the DICOM node owner's confirmation e-mail (issue 36, S11). The token is the proof,
 * so no sign-in is needed; a browser lands on Settings, told in words how it went. Asking for a link is tRPC's
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
        description:
          'A browser (Accept: text/html) is sent to /chat/settings?dicom-owner=confirmed, or ' +
          '?dicom-owner=invalid for a used, expired or unknown link; any other caller gets the 400.',
        querystring: z.object({ token: z.string().max(200) }),
        response: {
          303: ZMailedLinkLanded,
          400: errorResponse(DICOM_OWNER_MESSAGES.invalid),
        },
      },
    },
    (req, reply) =>
      landMailedLink(req, reply, {
        link: 'dicomOwner',
        confirm: () => confirmDicomOwner({ ...deps, meta: req.meta(), token: req.query.token }),
        messages: DICOM_OWNER_MESSAGES,
      }),
  );
};

export default routes;
