import { z } from 'zod';
import { ZEmail } from './auth.js';

/**
 * Site administration of which accounts' and teams' STOW-RS results go to DICOM_DESTINATION
 * (issue 36 S2; teams: issue 32).
 */
export const STOW_FORWARDING_MESSAGES = {
  noAccount: 'No account uses that email address',
  noTeam: 'No team has that id',
  oneSpace: 'Name either an account (email) or a team (teamId)',
} as const;

/** Turn forwarding on (true) or off (false) for the account with this address, or for a team. */
export const ZSetStowForwardingInput = z
  .object({
    email: ZEmail.optional(),
    teamId: z.string().max(100, STOW_FORWARDING_MESSAGES.noTeam).optional(),
    forward: z.boolean(),
  })
  .refine((v) => (v.email === undefined) !== (v.teamId === undefined), { message: STOW_FORWARDING_MESSAGES.oneSpace });
export type TSetStowForwardingInput = z.infer<typeof ZSetStowForwardingInput>;

export const ZStowForwardingEntry = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  since: z.string(),
});
export const ZStowForwardingTeam = z.object({ teamId: z.uuid(), name: z.string(), since: z.string() });
export const ZStowForwardingList = z.object({
  items: z.array(ZStowForwardingEntry),
  teams: z.array(ZStowForwardingTeam),
});
export type TStowForwardingList = z.infer<typeof ZStowForwardingList>;
