import { ZWorklist, ZWorklistInput } from '@contracts/schemas/worklist.js';
import { listWorklist } from '../../../services/dicom-node/list-worklist.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Studies from the DICOM network, most urgent first (issue 24). */
export const worklistRouter = router({
  list: protectedProcedure
    .input(ZWorklistInput)
    .output(ZWorklist)
    .query(({ ctx, input }) => listWorklist({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),
});
