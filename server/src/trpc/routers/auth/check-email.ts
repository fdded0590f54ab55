import { AUTH_MESSAGES, ZCheckEmailInput, ZMessageResult } from '@contracts/schemas/auth.js';
import { publicProcedure } from '../../trpc.js';

/**
 * Login step 1. It only validates the address: saying whether an account exists would let anyone
 * test emails, so every valid address gets the same answer.
 */
export const checkEmailProcedure = publicProcedure
  .input(ZCheckEmailInput)
  .output(ZMessageResult)
  .mutation(() => ({ success: true as const, message: AUTH_MESSAGES.emailChecked }));
