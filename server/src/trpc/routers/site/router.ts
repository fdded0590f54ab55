import { z } from 'zod';
import {
  ZApplyInput,
  ZCalibration,
  ZCalibrationState,
  ZMonitoring,
  ZMonitoringInput,
  ZProposeInput,
  SITE_MESSAGES,
  ZSiteAccess,
  ZUrgentFindings,
  ZUrgentFindingsInput,
} from '@contracts/schemas/site.js';
import { ZMessageResult } from '@contracts/schemas/auth.js';
import { ZTeamMappingPreview, ZTeamMappingPreviewInput } from '@contracts/schemas/sso.js';
import { ZSetStowForwardingInput, ZStowForwardingList } from '@contracts/schemas/stow-forwarding.js';
import { ZDestinationTestInput, ZSiteDestinations } from '@contracts/schemas/site-destinations.js';
import { getSiteDestinations } from '../../../services/site/get-site-destinations.js';
import { testDestination } from '../../../services/site/test-destination.js';
import { applyCalibration, revertCalibration } from '../../../services/site/apply-calibration.js';
import { getCalibration } from '../../../services/site/get-calibration.js';
import { getMonitoring } from '../../../services/site/get-monitoring.js';
import { getUrgentFindings } from '../../../services/site/get-urgent-findings.js';
import { setUrgentFindings } from '../../../services/site/set-urgent-findings.js';
import { proposeCalibration } from '../../../services/site/propose-calibration.js';
import { previewTeamMapping } from '../../../services/sso/preview-team-mapping.js';
import { listStowForwarding, setStowForwarding } from '../../../services/site/stow-forwarding.js';
import { isSiteAdmin } from '../../../services/auth/auth-level.js';
import { canClaimSiteAdmin, requestAdminVerification } from '../../../services/site/verify-admin-email.js';
import {
  passwordSessionProcedure,
  protectedProcedure,
  router,
  siteAdminProcedure,
  siteAdminSessionProcedure,
} from '../../trpc.js';
import { modelProcedures } from './model-procedures.js';

/** Site administration (issue 17); every call but `access` is for SITE_ADMIN_EMAILS only (403 otherwise). */
export const siteRouter = router({
  /** Whether to show the Site tab; any signed-in user may ask about themselves. */
  access: protectedProcedure
    .output(ZSiteAccess)
    .query(({ ctx }) => ({ siteAdmin: isSiteAdmin(ctx.auth), canClaim: canClaimSiteAdmin(ctx.deps.config, ctx.auth) })),

  /** Mails a confirmation link to a listed address (issue 23 N3): the role needs the mailbox, not the signup. */
  requestAdminVerification: passwordSessionProcedure.output(ZMessageResult).mutation(async ({ ctx }) => {
    await requestAdminVerification({ ...ctx.deps, auth: ctx.auth });
    return { success: true as const, message: SITE_MESSAGES.verifySent };
  }),

  calibration: siteAdminProcedure.output(ZCalibrationState).query(({ ctx }) => getCalibration({ ...ctx.deps })),

  proposeCalibration: siteAdminProcedure
    .input(ZProposeInput)
    .output(ZCalibration)
    .mutation(({ ctx, input }) => proposeCalibration({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  applyCalibration: siteAdminSessionProcedure
    .input(ZApplyInput)
    .output(ZCalibration)
    .mutation(({ ctx, input }) =>
      applyCalibration({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, calibrationId: input.calibrationId }),
    ),

  revertCalibration: siteAdminSessionProcedure.output(z.object({ ok: z.literal(true) })).mutation(async ({ ctx }) => {
    await revertCalibration({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId });
    return { ok: true as const };
  }),

  /** Accounts whose STOW-RS results go to DICOM_DESTINATION (issue 36 S2); DIMSE results always do. */
  stowForwarding: siteAdminProcedure
    .output(ZStowForwardingList)
    .query(({ ctx }) => listStowForwarding({ ...ctx.deps })),

  // Where results go changes what lands in patients' studies at the PACS: a password session, never an API key.
  setStowForwarding: siteAdminSessionProcedure
    .input(ZSetStowForwardingInput)
    .output(ZStowForwardingList)
    .mutation(({ ctx, input }) => setStowForwarding({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  /** The RIS and PACS destinations with their last test, and the STOW-RS forwarding list (issue 49 item 7). */
  destinations: siteAdminProcedure.output(ZSiteDestinations).query(({ ctx }) => getSiteDestinations({ ...ctx.deps })),

  // A test sends a message to the hospital's RIS or PACS: a password session, never an API key.
  testDestination: siteAdminSessionProcedure
    .input(ZDestinationTestInput)
    .output(ZSiteDestinations)
    .mutation(({ ctx, input }) => testDestination({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  monitoring: siteAdminProcedure
    .input(ZMonitoringInput)
    .output(ZMonitoring)
    .query(({ ctx, input }) => getMonitoring({ ...ctx.deps, weeks: input.weeks })),

  /**
   * What an SSO login with these claims would do to team memberships (changes nothing). A
   * mutation only so the claims (names, e-mails) travel in the body, never in a URL.
   */
  previewTeamMapping: siteAdminProcedure
    .input(ZTeamMappingPreviewInput)
    .output(ZTeamMappingPreview)
    .mutation(({ ctx, input }) => previewTeamMapping({ ...ctx.deps, claims: input.claims })),

  /** Which findings make a worklist study Urgent (model 4, issue 31). */
  urgentFindings: siteAdminProcedure.output(ZUrgentFindings).query(({ ctx }) => getUrgentFindings({ ...ctx.deps })),

  setUrgentFindings: siteAdminSessionProcedure
    .input(ZUrgentFindingsInput)
    .output(ZUrgentFindings)
    .mutation(({ ctx, input }) => setUrgentFindings({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  ...modelProcedures,
});
