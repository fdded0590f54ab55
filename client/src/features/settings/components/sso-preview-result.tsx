import type { TSsoTeamChange, TTeamMappingPreview } from '@contracts/schemas/sso';
import type { TTeamRole } from '@contracts/schemas/team';
import { ROLE_LABEL } from '../../teams/components/space-switcher';

const role = (r: TTeamRole | null) => (r ? ROLE_LABEL[r].toLowerCase() : '—');

const KEEP_REASON: Record<NonNullable<TSsoTeamChange['reason']>, string> = {
  unchanged: 'already so',
  manual: 'granted by hand here, so the sign-in leaves it',
  last_admin: "the team's last admin keeps the role",
  missing_team: 'no team here has this name',
};

/** The role held after the sign-in: a kept membership keeps the role it had. */
function after(c: TSsoTeamChange): TTeamRole | null {
  if (c.action === 'join' || c.action === 'change') return c.to;
  return c.action === 'keep' ? c.from : null;
}

/** One membership's fate in words: what the next sign-in with these claims would do. */
function outcome(c: TSsoTeamChange): string {
  switch (c.action) {
    case 'join':
      return `Joins as ${role(c.to)}`;
    case 'change':
      return `Role changes from ${role(c.from)} to ${role(c.to)}`;
    case 'remove':
      return `Leaves the team (was ${role(c.from)})`;
    case 'keep':
      return `Stays ${role(c.from)}${c.reason ? `: ${KEEP_REASON[c.reason]}` : ''}`;
    case 'skip':
      return `Skipped: ${KEEP_REASON.missing_team}`;
  }
}

/** The preview's answer (issue 41 part 6): whose account, which groups, and each team's fate. */
export function SsoPreviewResult({ preview }: { preview: TTeamMappingPreview }) {
  const { account, groups, refused, changes } = preview;
  const teams = changes.filter((c) => after(c) !== null);
  return (
    <section className="card sso-preview-result" aria-labelledby="sso-preview-result-title" aria-live="polite">
      <h2 id="sso-preview-result-title" className="section-title">
        What this sign-in would do
      </h2>
      <p>
        {account
          ? `Account: ${account.email} (found by ${account.linkedBy === 'identity' ? 'its linked hospital sign-in' : 'its e-mail address'}).`
          : 'Account: none yet; the sign-in would create one (where auto-registration is on).'}
      </p>
      <p>Groups read from the claims: {groups.length > 0 ? groups.join(', ') : 'none'}.</p>
      {refused === 'no_role' ? (
        <p role="alert" className="field-error">
          Refused: no group maps to a role, and strict mode turns such sign-ins away.
        </p>
      ) : changes.length === 0 ? (
        <p className="muted">No team membership would change: no group maps to a team.</p>
      ) : (
        <>
          <div className="sso-preview-table-wrap">
            <table className="sso-preview-table">
              <caption className="visually-hidden">Team memberships after the sign-in</caption>
              <thead>
                <tr>
                  <th scope="col">Team</th>
                  <th scope="col">Role now</th>
                  <th scope="col">Role after</th>
                  <th scope="col">What happens</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((c, i) => (
                  <tr key={`${c.teamId ?? c.slug ?? ''}-${i}`} data-testid="sso-preview-change">
                    <td>{c.teamName ?? c.slug ?? '—'}</td>
                    <td>{role(c.from)}</td>
                    <td>{role(after(c))}</td>
                    <td>{outcome(c)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p data-testid="sso-preview-summary">
            {teams.length > 0
              ? `Member of: ${teams.map((c) => `${c.teamName ?? c.slug ?? ''} (${role(after(c))})`).join(', ')}.`
              : 'Member of no team after this sign-in.'}
          </p>
        </>
      )}
    </section>
  );
}
