import type { TSsoTeamChange, TTeamMembership } from '@contracts/schemas/sso.js';
import type { TTeamRole } from '@contracts/schemas/team.js';

/** One of the person's memberships now, with how many admins its team has. */
export interface TCurrentMembership {
  teamId: string;
  teamName: string;
  role: TTeamRole;
  source: 'manual' | 'sso';
  admins: number;
}

/** A mapped membership whose slug names exactly one team here. */
export interface TResolvedTeam extends TTeamMembership {
  teamId: string;
  teamName: string;
}

/**
 * What an SSO login does to each membership: the one decision shared by the login
 * (syncSsoMemberships, which carries it out under row locks) and the site admin's preview.
 *
 * - Hand-granted memberships (team creation, invitations) are the team admins' business: the
 *   IdP neither changes nor removes them, unless `strict` (OIDC_ROLE_STRICT) makes the IdP the
 *   only authority over every membership.
 * - A team is never left without an admin: demoting or removing its last admin is not done
 *   (`keep`, reason `last_admin`), the login goes ahead, and the sync is audited and logged so
 *   the team's admins or the IdP's can hand the role on.
 */
export function planTeamSync(opts: {
  current: readonly TCurrentMembership[];
  resolved: readonly TResolvedTeam[];
  skipped: readonly TSsoTeamChange[];
  strict: boolean;
}): TSsoTeamChange[] {
  const { current, resolved, strict } = opts;
  const now = new Map(current.map((m) => [m.teamId, m]));
  const out: TSsoTeamChange[] = [...opts.skipped];
  const lastAdmin = (m: TCurrentMembership) => m.role === 'admin' && m.admins <= 1;
  const managed = (m: TCurrentMembership) => strict || m.source === 'sso';

  for (const r of resolved) {
    const base = { slug: r.team, teamId: r.teamId, teamName: r.teamName };
    const m = now.get(r.teamId);
    if (!m) out.push({ ...base, action: 'join', from: null, to: r.role, reason: null });
    else if (m.role === r.role) out.push({ ...base, action: 'keep', from: m.role, to: m.role, reason: 'unchanged' });
    else if (!managed(m)) out.push({ ...base, action: 'keep', from: m.role, to: m.role, reason: 'manual' });
    else if (lastAdmin(m)) out.push({ ...base, action: 'keep', from: m.role, to: m.role, reason: 'last_admin' });
    else out.push({ ...base, action: 'change', from: m.role, to: r.role, reason: null });
  }
  const mapped = new Set(resolved.map((r) => r.teamId));
  for (const m of current) {
    if (mapped.has(m.teamId)) continue;
    const base = { slug: null, teamId: m.teamId, teamName: m.teamName, from: m.role };
    if (!managed(m)) out.push({ ...base, action: 'keep', to: m.role, reason: 'manual' });
    else if (lastAdmin(m)) out.push({ ...base, action: 'keep', to: m.role, reason: 'last_admin' });
    else out.push({ ...base, action: 'remove', to: null, reason: null });
  }
  return out;
}
