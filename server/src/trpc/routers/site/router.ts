import { z } from 'zod';
import {
  ZApplyInput,
  ZCalibration,
  ZCalibrationState,
  ZMonitoring,
  ZMonitoringInput,
  ZProposeInput,
  ZSiteAccess,
} from '@contracts/schemas/site.js';
import { applyCalibration, revertCalibration } from '../../../services/site/apply-calibration.js';
import { getCalibration } from '../../../services/site/get-calibration.js';
import { getMonitoring } from '../../../services/site/get-monitoring.js';
import { proposeCalibration } from '../../../services/site/propose-calibration.js';
import { isSiteAdmin } from '../../../services/site/require-site-admin.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Site administration (issue 17); every call but `access` is for SITE_ADMIN_EMAILS only (403 otherwise). */
export const siteRouter = router({
  /** Whether to show the Site tab; any signed-in user may ask about themselves. */
  access: protectedProcedure
    .output(ZSiteAccess)
    .query(({ ctx }) => ({ siteAdmin: isSiteAdmin(ctx.deps.config, ctx.auth) })),

  calibration: protectedProcedure
    .output(ZCalibrationState)
    .query(({ ctx }) => getCalibration({ ...ctx.deps, auth: ctx.auth })),

  proposeCalibration: protectedProcedure
    .input(ZProposeInput)
    .output(ZCalibration)
    .mutation(({ ctx, input }) => proposeCalibration({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth, input })),

  applyCalibration: protectedProcedure
    .input(ZApplyInput)
    .output(ZCalibration)
    .mutation(({ ctx, input }) =>
      applyCalibration({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth, calibrationId: input.calibrationId }),
    ),

  revertCalibration: protectedProcedure.output(z.object({ ok: z.literal(true) })).mutation(async ({ ctx }) => {
    await revertCalibration({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth });
    return { ok: true as const };
  }),

  monitoring: protectedProcedure
    .input(ZMonitoringInput)
    .output(ZMonitoring)
    .query(({ ctx, input }) => getMonitoring({ ...ctx.deps, auth: ctx.auth, weeks: input.weeks })),
});
