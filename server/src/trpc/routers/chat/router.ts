import { router } from '../../trpc.js';

export const chatRouter = router({});
