import { ZMessageResult } from '@contracts/schemas/auth.js';
import { DICOM_OWNER_MESSAGES, ZDicomOwnerState } from '@contracts/schemas/dicom-owner.js';
import { dicomOwnerState, requestDicomOwnerConfirmation } from '../../../services/dicom-node/confirm-dicom-owner.js';
import { passwordSessionProcedure, protectedProcedure, router } from '../../trpc.js';

/** The DICOM node's owner proving its address (issue 36, S11); Settings shows it to that account only. */
export const dicomOwnerRouter = router({
  /** Whether this account is DICOM_OWNER_EMAIL's (with the node on) and whether it has confirmed. */
  state: protectedProcedure
    .output(ZDicomOwnerState)
    .query(({ ctx }) => dicomOwnerState({ ...ctx.deps, account: ctx.auth })),

  /** Mails another confirmation link to the owner's address: 403 for any other account, 409 once confirmed. */
  requestConfirmation: passwordSessionProcedure.output(ZMessageResult).mutation(async ({ ctx }) => {
    await requestDicomOwnerConfirmation({ ...ctx.deps, account: ctx.auth });
    return { success: true as const, message: DICOM_OWNER_MESSAGES.sent };
  }),
});
