import { z } from 'zod';

/**
 * The DICOM node's owner proving its address (issue 36, S11): the node sends studies only to the
 * account named by DICOM_OWNER_EMAIL once its owner has followed the link mailed to that address.
 */
export const DICOM_OWNER_MESSAGES = {
  notOwner: 'This account is not the DICOM node owner',
  alreadyConfirmed: 'This address is already confirmed as the DICOM node owner',
  sent: 'Check your email: we sent a link to confirm your address as the DICOM node owner',
  confirmed: 'Address confirmed: the DICOM node now sends its studies to this account',
  invalid: 'This confirmation link has expired or is invalid. Please ask for a new one.',
} as const;

/** What Settings shows: whether this account is the node's owner, and whether it has confirmed. */
export const ZDicomOwnerState = z.object({ owner: z.boolean(), confirmed: z.boolean() });
export type TDicomOwnerState = z.infer<typeof ZDicomOwnerState>;
