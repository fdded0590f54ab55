import { ZLiveModelCard } from '@contracts/schemas/models.js';
import { readLiveCard } from '../../../services/models/read-live-card.js';
import { protectedProcedure, router } from '../../trpc.js';

/** The live model's own card (issue 47), the REST GET /api/model-card/live twin: any signed-in user. */
export const modelCardRouter = router({
  live: protectedProcedure.output(ZLiveModelCard).query(({ ctx }) => readLiveCard({ ...ctx.deps })),
});
