import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SITE_MESSAGES,
  ZApplyInput,
  ZCalibration,
  ZCalibrationState,
  ZMonitoring,
  ZMonitoringInput,
  ZProposeInput,
} from '@contracts/schemas/site.js';
import { applyCalibration, revertCalibration } from '../services/site/apply-calibration.js';
import { getCalibration } from '../services/site/get-calibration.js';
import { getMonitoring } from '../services/site/get-monitoring.js';
import { proposeCalibration } from '../services/site/propose-calibration.js';
import { confirmAdminVerification } from '../services/site/verify-admin-email.js';
import { previewTeamMapping } from '../services/sso/preview-team-mapping.js';
import { ZTeamMappingPreview, ZTeamMappingPreviewInput } from '@contracts/schemas/sso.js';
import { ZDestinationTestInput, ZSiteDestinations } from '@contracts/schemas/site-destinations.js';
import { ZSetStowForwardingInput, ZStowForwardingList } from '@contracts/schemas/stow-forwarding.js';
import { getSiteDestinations } from '../services/site/get-site-destinations.js';
import { listStowForwarding, setStowForwarding } from '../services/site/stow-forwarding.js';
import { testDestination } from '../services/site/test-destination.js';
import { landMailedLink, ZMailedLinkLanded } from './land-mailed-link.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['site'];
const config = { auth: 'site-admin' } as const;
// Applying and reverting change every new analysis: a password session, never an API key.
const sessionConfig = { auth: 'site-admin-session' } as const;
const adminsOnly = { 403: errorResponse(`${SITE_MESSAGES.adminsOnly} (a site administrator's session)`) };

/** Site calibration for site administrators (issue 17); the same services as the tRPC site router. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  // The link in the confirmation e-mail (issue 23 N3): the token is the proof, so no sign-in is
  // needed. A browser lands on Settings, which says in words how it went (issue 41 part 6); a
  // refused link sends a browser there too, while a script keeps the documented 400.
  app.get(
    '/verify-admin',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Confirm a listed address from the e-mailed link; grants the site-admin role',
        description:
          'A browser (Accept: text/html) is sent to /chat/settings?site-admin=confirmed, or ' +
          '?site-admin=invalid for a used, expired or unknown link; any other caller gets the 400.',
        querystring: z.object({ token: z.string().max(200) }),
        response: {
          303: ZMailedLinkLanded,
          400: errorResponse(SITE_MESSAGES.verifyInvalid),
        },
      },
    },
    (req, reply) =>
      landMailedLink(req, reply, {
        link: 'siteAdmin',
        confirm: () => confirmAdminVerification({ ...deps, meta: req.meta(), token: req.query.token }),
        messages: { confirmed: SITE_MESSAGES.verified, invalid: SITE_MESSAGES.verifyInvalid },
      }),
  );

  app.post(
    '/sso-preview',
    {
      config,
      schema: {
        tags,
        summary: 'What an SSO login with these claims would do to team memberships (nothing is changed)',
        body: ZTeamMappingPreviewInput,
        response: { 200: envelope(ZTeamMappingPreview), ...adminsOnly },
      },
    },
    async (req) => ({ success: true as const, data: await previewTeamMapping({ ...deps, claims: req.body.claims }) }),
  );

  app.get(
    '/calibration',
    {
      config,
      schema: {
        tags,
        summary: 'The applied site thresholds and whether they hold for the shipped model',
        response: { 200: envelope(ZCalibrationState), ...adminsOnly },
      },
    },
    async () => ({ success: true as const, data: await getCalibration({ ...deps }) }),
  );

  app.post(
    '/calibration/propose',
    {
      config,
      schema: {
        tags,
        summary:
          'Propose per-finding site thresholds from clinician feedback or a labelled results CSV (not applied yet)',
        body: ZProposeInput,
        response: { 200: envelope(ZCalibration), ...adminsOnly },
      },
    },
    async (req) => ({
      success: true as const,
      data: await proposeCalibration({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        input: req.body,
      }),
    }),
  );

  app.put(
    '/calibration',
    {
      config: sessionConfig,
      schema: {
        tags,
        summary: 'Apply a proposal to new analyses',
        body: ZApplyInput,
        response: {
          200: envelope(ZCalibration),
          ...adminsOnly,
          404: errorResponse(SITE_MESSAGES.noProposal),
          409: errorResponse(SITE_MESSAGES.modelChanged),
        },
      },
    },
    async (req) => ({
      success: true as const,
      message: SITE_MESSAGES.applied,
      data: await applyCalibration({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        calibrationId: req.body.calibrationId,
      }),
    }),
  );

  app.delete(
    '/calibration',
    {
      config: sessionConfig,
      schema: {
        tags,
        summary: 'Revert to the model defaults for new analyses',
        response: { 200: ZOk, ...adminsOnly, 404: errorResponse(SITE_MESSAGES.nothingApplied) },
      },
    },
    async (req) => {
      await revertCalibration({ ...deps, meta: req.meta(), userId: req.signedIn().userId });
      return { success: true as const, message: SITE_MESSAGES.reverted };
    },
  );

  app.get(
    '/destinations',
    {
      config,
      schema: {
        tags,
        summary: 'The RIS (HL7) and PACS (DICOM) destinations with their last test, and the STOW-RS forwarding list',
        response: { 200: envelope(ZSiteDestinations), ...adminsOnly },
      },
    },
    async () => ({ success: true as const, data: await getSiteDestinations({ ...deps }) }),
  );

  app.post(
    '/destinations/test',
    {
      config: sessionConfig,
      schema: {
        tags,
        summary:
          'Send a test: an HL7 test ORU for a test patient to the RIS, or a C-ECHO to the PACS; kept as its last result',
        body: ZDestinationTestInput,
        response: {
          200: envelope(ZSiteDestinations),
          400: errorResponse('No destination is configured: set REPORT_HL7_DESTINATION or DICOM_DESTINATION'),
          ...adminsOnly,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await testDestination({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        input: req.body,
      }),
    }),
  );

  app.get(
    '/stow-forwarding',
    {
      config,
      schema: {
        tags,
        summary: 'The accounts and teams whose STOW-RS results are forwarded to DICOM_DESTINATION',
        response: { 200: envelope(ZStowForwardingList), ...adminsOnly },
      },
    },
    async () => ({ success: true as const, data: await listStowForwarding({ ...deps }) }),
  );

  app.put(
    '/stow-forwarding',
    {
      config: sessionConfig,
      schema: {
        tags,
        summary: "Forward (or stop forwarding) one account's (by email) or one team's STOW-RS results to the PACS",
        body: ZSetStowForwardingInput,
        response: {
          200: envelope(ZStowForwardingList),
          ...adminsOnly,
          404: errorResponse('No account uses that email address, or no team has that id'),
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await setStowForwarding({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input: req.body }),
    }),
  );

  app.get(
    '/monitoring',
    {
      config,
      schema: {
        tags,
        summary:
          "Weekly aggregates: analyses, gate refusals, PSI of each finding's scores against the validation reference, feedback agreement",
        querystring: ZMonitoringInput,
        response: { 200: envelope(ZMonitoring), ...adminsOnly },
      },
    },
    async (req) => ({
      success: true as const,
      data: await getMonitoring({ ...deps, weeks: req.query.weeks }),
    }),
  );
};

export default routes;
