import { z } from 'zod';
import { TEAM_ROLES, type TTeamRole } from '../schemas/team.js';
import { zBool } from './parse-env.js';

/** One entry of OIDC_TEAM_MAP: members of `group` at the IdP belong to team `team` with `role`. */
export interface TTeamMapEntry {
  group: string;
  /** The team's slug: its name lower-cased, runs of other characters as `-` ("Emergency Dept" → emergency-dept). */
  team: string;
  role: TTeamRole;
}

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** `group=team:role`, comma-separated, e.g. `cxr-radiology=radiology:radiologist,cxr-ed=emergency:clinician`. */
const zTeamMap = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const out: TTeamMapEntry[] = [];
    for (const entry of v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const eq = entry.lastIndexOf('=');
      const [team = '', role = '', extra] = entry.slice(eq + 1).split(':');
      const group = entry.slice(0, eq).trim();
      const isRole = (TEAM_ROLES as readonly string[]).includes(role);
      if (eq < 1 || !group || !SLUG_RE.test(team) || !isRole || extra !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not group=team:role (team a lower-case slug, role one of ${TEAM_ROLES.join(', ')})`,
        });
        return z.NEVER;
      }
      out.push({ group, team, role: role as TTeamRole });
    }
    return out;
  });

const zList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * Single sign-on with the hospital's OpenID Provider (docs/sso.md). Unset OIDC_ISSUER = no SSO:
 * the other OIDC_* settings are then ignored and nothing changes.
 */
export const oidcConfigShape = {
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_SCOPES: z.string().default('openid email profile'),
  OIDC_BUTTON_TEXT: z.string().max(60).default('hospital account'),
  OIDC_AUTO_REGISTER: zBool.default(false),
  /** E-mail domains an auto-registered account may have; empty admits none. */
  OIDC_ALLOWED_DOMAINS: zList,
  OIDC_GROUPS_CLAIM: z.string().default('groups'),
  OIDC_TEAM_MAP: zTeamMap,
  /** Refuse a login whose groups map to no team role. */
  OIDC_ROLE_STRICT: zBool.default(false),
  /** Seconds the IdP's and this server's clocks may differ when checking an ID token's times. */
  OIDC_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /** How long the IdP's discovery document is kept; a failed refresh keeps the last good one. */
  OIDC_DISCOVERY_TTL_SECONDS: z.coerce.number().int().min(10).default(3600),
  /** `off` hides the password form and refuses the password routes (API keys keep working). */
  PASSWORD_LOGIN: z.enum(['on', 'off']).default('on'),
};

/** Checks across the OIDC settings: an issuer needs a client, and password login off needs SSO. */
export function checkOidcConfig(
  c: { OIDC_ISSUER?: string | undefined; OIDC_CLIENT_ID?: string | undefined; PASSWORD_LOGIN: 'on' | 'off' },
  ctx: z.RefinementCtx,
): void {
  if (c.OIDC_ISSUER && !c.OIDC_CLIENT_ID)
    ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'required when OIDC_ISSUER is set' });
  if (c.PASSWORD_LOGIN === 'off' && !c.OIDC_ISSUER)
    ctx.addIssue({
      code: 'custom',
      path: ['PASSWORD_LOGIN'],
      message: 'off needs OIDC_ISSUER (nobody could sign in)',
    });
}
