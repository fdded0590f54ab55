import { z } from 'zod';

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
] as const;
export type TSsoRefusal = (typeof SSO_REFUSALS)[number];
export const ZSsoRefusal = z.enum(SSO_REFUSALS);

export const SSO_MESSAGES: Record<TSsoRefusal | 'passwordLoginOff' | 'linkConfirm', string> = {
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

/** The site admin's preview: which teams and roles these claims would give. */
export const ZTeamMappingPreviewInput = z.object({ claims: z.record(z.string(), z.unknown()) });
export const ZTeamMembership = z.object({ team: z.string(), role: z.string() });
export type TTeamMembership = z.infer<typeof ZTeamMembership>;
