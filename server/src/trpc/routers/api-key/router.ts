import { router } from '../../trpc.js';

export const apiKeyRouter = router({});
