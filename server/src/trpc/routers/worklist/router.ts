import {
  ZAnalysisStudy,
  ZAnalysisStudyInput,
  ZNextStudy,
  ZNextStudyInput,
  ZReviewStudyInput,
  ZWorklist,
  ZWorklistInput,
  ZWorklistStudyInput,
  ZWorklistStudyState,
} from '@contracts/schemas/worklist.js';
import { listWorklist } from '../../../services/dicom-node/list-worklist.js';
import { claimStudy } from '../../../services/worklist/claim-study.js';
import { readAnalysisStudy } from '../../../services/worklist/read-analysis-study.js';
import { openNextStudy } from '../../../services/worklist/open-next-study.js';
import { releaseStudy } from '../../../services/worklist/release-study.js';
import { reviewStudy } from '../../../services/worklist/review-study.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Studies from the DICOM network, most urgent first (issue 24), and who reads them (issue 32). */
export const worklistRouter = router({
  list: protectedProcedure
    .input(ZWorklistInput)
    .output(ZWorklist)
    .query(({ ctx, input }) => listWorklist({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
  /** The viewer's reading bar: the team study of an analysis and who reads it; null: nothing to claim. */
  study: protectedProcedure
    .input(ZAnalysisStudyInput)
    .output(ZAnalysisStudy)
    .query(({ ctx, input }) =>
      readAnalysisStudy({ ...ctx.deps, userId: ctx.auth.userId, analysisId: input.analysisId }),
    ),
  claim: protectedProcedure
    .input(ZWorklistStudyInput)
    .output(ZWorklistStudyState)
    .mutation(({ ctx, input }) => claimStudy({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, id: input.id })),
  release: protectedProcedure
    .input(ZWorklistStudyInput)
    .output(ZWorklistStudyState)
    .mutation(({ ctx, input }) => releaseStudy({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, id: input.id })),
  review: protectedProcedure
    .input(ZReviewStudyInput)
    .output(ZWorklistStudyState)
    .mutation(({ ctx, input }) => reviewStudy({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
  /** "Sign and next": the next unread, unclaimed study by urgency, claimed for the caller in a team. */
  next: protectedProcedure
    .input(ZNextStudyInput)
    .output(ZNextStudy)
    .mutation(({ ctx, input }) => openNextStudy({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
});
