import {
  ZAddendumInput,
  ZEditReportInput,
  ZReport,
  ZReportInput,
  ZSignReportInput,
} from '@contracts/schemas/report.js';
import { addAddendum } from '../../../services/report/add-addendum.js';
import { editReport } from '../../../services/report/edit-report.js';
import { getReport } from '../../../services/report/get-report.js';
import { signReport } from '../../../services/report/sign-report.js';
import { protectedProcedure, router } from '../../trpc.js';

/** The radiology report of an analysis (issue 41): read, edit the draft, sign, add addenda. */
export const reportRouter = router({
  get: protectedProcedure
    .input(ZReportInput)
    .output(ZReport)
    .query(({ ctx, input }) =>
      getReport({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, analysisId: input.analysisId }),
    ),
  edit: protectedProcedure
    .input(ZEditReportInput)
    .output(ZReport)
    .mutation(({ ctx, input }) => editReport({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
  sign: protectedProcedure
    .input(ZSignReportInput)
    .output(ZReport)
    .mutation(({ ctx, input }) => signReport({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
  addAddendum: protectedProcedure
    .input(ZAddendumInput)
    .output(ZReport)
    .mutation(({ ctx, input }) => addAddendum({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
});
