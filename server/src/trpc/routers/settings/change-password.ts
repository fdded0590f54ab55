import { SETTINGS_MESSAGES, ZChangePasswordInput, ZChangePasswordResult } from '@contracts/schemas/settings.js';
import { changePassword } from '../../../services/settings/change-password.js';
import { passwordSessionProcedure } from '../../trpc.js';

export const changePasswordProcedure = passwordSessionProcedure
  .input(ZChangePasswordInput)
  .output(ZChangePasswordResult)
  .mutation(async ({ ctx, input }) => {
    const done = await changePassword({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth, input });
    return { success: true as const, message: SETTINGS_MESSAGES.passwordUpdated, ...done };
  });
