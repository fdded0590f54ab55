import { ZMessageResult } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZClearInput } from '@contracts/schemas/settings.js';
import { clearProfiles } from '../../../services/settings/clear-profiles.js';
import { passwordSessionProcedure } from '../../trpc.js';

export const clearProfilesProcedure = passwordSessionProcedure
  .input(ZClearInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx }) => {
    await clearProfiles({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId });
    return { success: true as const, message: SETTINGS_MESSAGES.profilesCleared };
  });
