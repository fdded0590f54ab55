import { z } from 'zod';
import { ZTeamRole } from './team.js';

/**
 * Why an SSO sign-in was refused. The callback redirects to the login page with
 * `?sso_error=<code>`, and the page shows SSO_MESSAGES[code]: codes in the URL, words here.
 */
export const SSO_REFUSALS = [
  'idp_unreachable',
  'bad_response',
  'email_unverified',
  'domain_not_allowed',
  'no_account',
  'no_role',
  'link_expired',
  'link_other_account',
] as const;
export type TSsoRefusal = (typeof SSO_REFUSALS)[number];
export const ZSsoRefusal = z.enum(SSO_REFUSALS);

export const SSO_MESSAGES: Record<
  | TSsoRefusal
  | 'passwordLoginOff'
  | 'linkConfirm'
  | 'linked'
  | 'unlinked'
  | 'lastSignIn'
  | 'identityNotFound'
  | 'claimsNotObject'
  | 'claimsTooLarge',
  string
> = {
  idp_unreachable: 'The hospital sign-in service cannot be reached. Please try again later.',
  bad_response: 'The sign-in could not be completed. Please start again.',
  email_unverified:
    'Your hospital account has an e-mail address the sign-in service has not verified, so it cannot be linked to an account here.',
  domain_not_allowed: 'Accounts from this e-mail domain cannot be created here. Ask your administrator.',
  no_account: 'There is no account here for your hospital sign-in. Ask your administrator.',
  no_role: 'Your hospital groups give you no role in this application. Ask your administrator.',
  link_expired: 'The link request has expired. Please sign in with your hospital account again.',
  passwordLoginOff: 'Password sign-in is turned off on this site. Use your hospital account.',
  linkConfirm: 'An account with your e-mail exists. Enter its password once to link your hospital sign-in to it.',
  linked: 'Your hospital sign-in is now linked to this account.',
  link_other_account: 'That hospital sign-in is already linked to another account.',
  unlinked: 'Hospital sign-in unlinked',
  lastSignIn: 'This is your only way to sign in: set a password or link another hospital sign-in first.',
  identityNotFound: 'Linked sign-in not found',
  claimsNotObject: 'Claims must be a JSON object, e.g. {"sub": "…", "email": "…", "groups": ["…"]}',
  claimsTooLarge: 'Claims must be under 32 KB of JSON',
};

/** What the login page needs to know before anyone signs in (no call to the IdP). */
export const ZSsoOptions = z.object({
  sso: z.boolean(),
  buttonText: z.string(),
  passwordLogin: z.boolean(),
});
export type TSsoOptions = z.infer<typeof ZSsoOptions>;

/**
 * The one-time password confirmation that links an IdP identity to an existing account; which
 * identity is pending travels in an http-only cookie, never in the page.
 */
export const ZSsoLinkInput = z.object({ password: z.string().min(1).max(128) });
export type TSsoLinkInput = z.infer<typeof ZSsoLinkInput>;

export const ZTeamMembership = z.object({ team: z.string(), role: ZTeamRole });
export type TTeamMembership = z.infer<typeof ZTeamMembership>;

/**
 * What an SSO login does to one team membership (docs/sso.md, "Groups → teams"):
 * - join: mapped, not a member yet → member with the mapped role;
 * - change: an SSO-granted membership (any, in strict mode) takes the mapped role;
 * - remove: an SSO-granted membership (any, in strict mode) whose team is no longer mapped;
 * - keep: nothing changes (`reason` says why when the mapping asked for something else);
 * - skip: OIDC_TEAM_MAP names a team slug no team here has (slugs are unique: teams.slug).
 */
export const SSO_TEAM_ACTIONS = ['join', 'change', 'remove', 'keep', 'skip'] as const;
export const SSO_KEEP_REASONS = ['unchanged', 'manual', 'last_admin', 'missing_team'] as const;
export const ZSsoTeamChange = z.object({
  /** The slug from OIDC_TEAM_MAP, or for a membership the map does not name, null. */
  slug: z.string().nullable(),
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  action: z.enum(SSO_TEAM_ACTIONS),
  from: ZTeamRole.nullable(),
  to: ZTeamRole.nullable(),
  reason: z.enum(SSO_KEEP_REASONS).nullable(),
});
export type TSsoTeamChange = z.infer<typeof ZSsoTeamChange>;

/** The site admin's preview: the claims an IdP would send for one person. */
export const ZTeamMappingPreviewInput = z.object({
  claims: z
    .record(z.string(), z.unknown(), { error: SSO_MESSAGES.claimsNotObject })
    .refine((c) => JSON.stringify(c).length <= 32_768, SSO_MESSAGES.claimsTooLarge),
});
export type TTeamMappingPreviewInput = z.infer<typeof ZTeamMappingPreviewInput>;

/** What the claims would do at a real SSO login, without doing it. */
export const ZTeamMappingPreview = z.object({
  /** Whose memberships: the account the identity (`sub`) or, failing that, the e-mail finds; null: a new one. */
  account: z.object({ id: z.string(), email: z.string(), linkedBy: z.enum(['identity', 'email']) }).nullable(),
  groups: z.array(z.string()),
  mapped: z.array(ZTeamMembership),
  /** no_role when strict mode would refuse the login; null when it would go ahead. */
  refused: z.literal('no_role').nullable(),
  changes: z.array(ZSsoTeamChange),
});
export type TTeamMappingPreview = z.infer<typeof ZTeamMappingPreview>;

/** A hospital sign-in linked to the signed-in account (Settings → Profile). */
export const ZLinkedIdentity = z.object({
  id: z.string(),
  issuer: z.string(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type TLinkedIdentity = z.infer<typeof ZLinkedIdentity>;
export const ZLinkedIdentities = z.object({
  identities: z.array(ZLinkedIdentity),
  /** Whether the account has a password (an unlink must leave a way to sign in). */
  hasPassword: z.boolean(),
  /** Whether this site offers SSO (a new link can be started). */
  sso: z.boolean(),
  buttonText: z.string(),
});
export type TLinkedIdentities = z.infer<typeof ZLinkedIdentities>;
export const ZUnlinkIdentityInput = z.object({ identityId: z.string().max(100) });
