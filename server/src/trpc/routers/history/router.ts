import { router } from '../../trpc.js';

export const historyRouter = router({});
