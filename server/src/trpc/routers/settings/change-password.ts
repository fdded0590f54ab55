import { ZMessageResult } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZChangePasswordInput } from '@contracts/schemas/settings.js';
import { changePassword } from '../../../services/settings/change-password.js';
import { passwordSessionProcedure } from '../../trpc.js';

export const changePasswordProcedure = passwordSessionProcedure
  .input(ZChangePasswordInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx, input }) => {
    await changePassword({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth, input });
    return { success: true as const, message: SETTINGS_MESSAGES.passwordUpdated };
  });
