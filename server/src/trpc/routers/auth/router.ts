import { router } from '../../trpc.js';

export const authRouter = router({});
