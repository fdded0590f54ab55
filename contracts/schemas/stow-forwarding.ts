import { z } from 'zod';
import { ZEmail } from './auth.js';

/** Site administration of which accounts' STOW-RS results go to DICOM_DESTINATION (issue 36 S2). */
export const STOW_FORWARDING_MESSAGES = {
  noAccount: 'No account uses that email address',
} as const;

/** Turn forwarding on (true) or off (false) for the account with this address. */
export const ZSetStowForwardingInput = z.object({ email: ZEmail, forward: z.boolean() });
export type TSetStowForwardingInput = z.infer<typeof ZSetStowForwardingInput>;

export const ZStowForwardingEntry = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  since: z.string(),
});
export const ZStowForwardingList = z.object({ items: z.array(ZStowForwardingEntry) });
export type TStowForwardingList = z.infer<typeof ZStowForwardingList>;
