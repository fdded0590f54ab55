import { z } from 'zod';

/** Teams (issue 32): the team page, the tRPC procedures and the REST shims share these. */
export const TEAM_MESSAGES = {
  nameRequired: 'Team name is required',
  nameLength: 'Team name must be 3-80 characters',
  nameControl: 'Team name cannot contain line breaks or control characters',
  nameNoLetters: 'Team name needs at least one letter or digit',
  nameTaken:
    'A team with this name already exists (names that differ only in case, accents or punctuation count as the same)',
  nameReserved: 'This team name is reserved for single sign-on: only a site administrator can create this team',
  tooManyTeams: 'You already belong to 20 teams, the most an account can have when it creates one: leave one first',
  notFound: 'Team not found',
  memberNotFound: 'Member not found',
  adminOnly: 'Only a team admin can do this',
  roleInvalid: 'Role must be admin, radiologist or clinician',
  emailInvalid: 'Enter a valid email address',
  alreadyMember: 'That address already belongs to a member of this team',
  tooManyMembers: 'This team has reached its limit of 200 members',
  tooManyInvitations: 'This team has 50 pending invitations; wait for some to be accepted or expire',
  invitationInvalid: 'This invitation link is invalid, expired or already used',
  invitationOtherAddress: 'This invitation was sent to another address: sign in with that account to accept it',
  invitationInviterGone:
    'This invitation is no longer valid: the admin who sent it is no longer an admin of the team. Ask a team admin for a new one',
  invitationNotFound: 'Invitation not found',
  invitationRevoked: 'Invitation withdrawn',
  tooManyInvitesToAddress: 'Too many invitations to this address. Please try again later.',
  tooManyInvitesFromAccount: 'Too many invitations sent from your account. Please try again later.',
  lastAdmin: 'A team needs an admin: make another member admin first',
  auditCursorInvalid: 'The cursor must be the nextCursor of a previous page',
  lastAdminDeleting:
    'You are the last admin of a team with other members: make another member admin before deleting your account',
  invited: 'Invitation sent',
  joined: 'You joined the team',
  roleChanged: 'Role changed',
  removed: 'Member removed',
  left: 'You left the team',
  aeTitleInvalid: 'AE title must be 1-16 characters: letters, digits, spaces, - or _',
  aeTitleTaken: 'Another team already uses this AE title',
  aeTitleNode: "This is the DICOM node's own AE title (its owner's personal space): choose another",
} as const;

export const TEAM_ROLES = ['admin', 'radiologist', 'clinician'] as const;
export const ZTeamRole = z.enum(TEAM_ROLES, { error: TEAM_MESSAGES.roleInvalid });
export type TTeamRole = z.infer<typeof ZTeamRole>;

export const MAX_TEAM_MEMBERS = 200;
/** An account already in this many teams cannot create another (issue 39 S5). */
export const MAX_TEAMS_PER_ACCOUNT = 20;
export const MAX_PENDING_INVITATIONS = 50;
export const INVITATION_VALID_DAYS = 7;

/** A team id as input: anything (too long is refused); a non-UUID answers like a missing team. */
export const ZTeamId = z.string({ error: TEAM_MESSAGES.notFound }).max(100, TEAM_MESSAGES.notFound);

/**
 * The slug OIDC_TEAM_MAP names a team by, stored unique (teams.slug): its name lower-cased,
 * accents dropped, every run of other characters one `-` ("Radiology" → radiology, "Émergency
 * Dept." → emergency-dept). Names that differ only in case, accents or punctuation share a slug,
 * so they are one name: the database refuses the second (migration 0016 computes the same in SQL).
 */
export function teamSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Control and format characters (CR/LF, NUL, tab, bidi overrides, zero-width) are refused: the
 * name goes into invitation e-mails and every member's screen (issue 39 Info).
 */
const CONTROL_CHARS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export const ZTeamName = z
  .string({ error: TEAM_MESSAGES.nameRequired })
  .trim()
  .min(3, TEAM_MESSAGES.nameLength)
  .max(80, TEAM_MESSAGES.nameLength)
  .refine((name) => !CONTROL_CHARS.test(name), TEAM_MESSAGES.nameControl)
  .refine((name) => teamSlug(name) !== '', TEAM_MESSAGES.nameNoLetters);

export const ZCreateTeamInput = z.object({ name: ZTeamName });
export const ZTeamIdInput = z.object({ teamId: ZTeamId });
export const ZInviteInput = z.object({
  teamId: ZTeamId,
  email: z.email({ error: TEAM_MESSAGES.emailInvalid }).max(254, TEAM_MESSAGES.emailInvalid),
  role: ZTeamRole,
});
export type TInviteInput = z.infer<typeof ZInviteInput>;
export const ZJoinTeamInput = z.object({
  token: z.string({ error: TEAM_MESSAGES.invitationInvalid }).min(1, TEAM_MESSAGES.invitationInvalid).max(200),
});
export const ZInvitationInput = z.object({ teamId: ZTeamId, invitationId: ZTeamId });
export const ZMemberInput = z.object({ teamId: ZTeamId, userId: ZTeamId });
export const ZChangeRoleInput = ZMemberInput.extend({ role: ZTeamRole });
export const ZAeTitleInput = z.object({
  teamId: ZTeamId,
  aeTitle: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 _-]{1,16}$/, TEAM_MESSAGES.aeTitleInvalid)
    .nullable(),
});

/** The space a list or a new row belongs to: a team's id, or absent/null for the personal space. */
export const ZSpaceInput = z.object({ team: ZTeamId.nullish() });

export const ZTeam = z.object({
  id: z.uuid(),
  name: z.string(),
  role: ZTeamRole,
  aeTitle: z.string().nullable(),
});
export type TTeam = z.infer<typeof ZTeam>;
export const ZTeamList = z.object({ teams: z.array(ZTeam) });

export const ZTeamMember = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: ZTeamRole,
  joinedAt: z.string(),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;
export const ZTeamInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: ZTeamRole,
  expiresAt: z.string(),
});
export const ZTeamMembers = z.object({ members: z.array(ZTeamMember), invitations: z.array(ZTeamInvitation) });
export type TTeamMembers = z.infer<typeof ZTeamMembers>;

/** A team's audit trail (issue 32 part 5), newest first, paged by entry id (keyset). */
export const ZTeamAuditInput = z.object({
  teamId: ZTeamId,
  /** The `nextCursor` of the previous page; absent: the newest entries. */
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, TEAM_MESSAGES.auditCursorInvalid)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TTeamAuditInput = z.input<typeof ZTeamAuditInput>;
export const ZTeamAuditEntry = z.object({
  id: z.string().describe('The entry id: entries are in the order they were written'),
  at: z.string(),
  /** Who did it; name null: an account deleted since; email only for a member of the team. */
  actor: z.object({ userId: z.uuid().nullable(), name: z.string().nullable(), email: z.string().nullable() }),
  action: z.string().describe('e.g. history.read, export.pdf, image.read, feedback.save, team.role_change'),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  /**
   * The object in words, where the reader may see it: the team's name, a member's name and
   * e-mail, "analysis of 2026-11-29" (a chat or profile by its date, never a patient's name);
   * null for a row that is gone or not theirs to see.
   */
  objectName: z
    .string()
    .nullable()
    .describe('The object in words where the reader may see it (team, member, "analysis of <date>"); else null'),
  outcome: z.enum(['success', 'failure']),
  /** Ids, counts and codes only, never patient data. */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
});
export type TTeamAuditEntry = z.infer<typeof ZTeamAuditEntry>;
export const ZTeamAuditPage = z.object({ entries: z.array(ZTeamAuditEntry), nextCursor: z.string().nullable() });
export type TTeamAuditPage = z.infer<typeof ZTeamAuditPage>;
