import { router } from '../../trpc.js';

export const analysisRouter = router({});
