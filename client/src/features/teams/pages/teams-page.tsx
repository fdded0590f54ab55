import { Spinner } from '../../../components/spinner';
import { setSpace, useCurrentSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import { CreateTeamForm } from '../components/create-team-form';
import { ROLE_LABEL } from '../components/space-switcher';
import { TeamSettings } from '../components/team-settings';
import './teams-page.css';

/**
 * /chat/teams: the current team's settings, or, in the personal space, the user's teams to switch
 * to; creating a team is always offered.
 */
export function TeamsPage() {
  const space = useCurrentSpace();
  const me = trpc.auth.me.useQuery();
  const teams = trpc.team.list.useQuery();
  const list = teams.data?.teams ?? [];
  const team = space ? list.find((t) => t.id === space.teamId) : undefined;
  return (
    <div className="page teams-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{team ? team.name : 'Teams'}</h1>
          <p className="muted">
            {team
              ? `You are ${ROLE_LABEL[team.role].toLowerCase()} in this team.`
              : 'You are in your personal space: what you create here is yours alone.'}
          </p>
        </div>
      </header>
      {teams.isPending || !me.data ? (
        <Spinner label="Loading teams..." />
      ) : team ? (
        <TeamSettings team={team} myId={me.data.user.id} />
      ) : list.length === 0 ? (
        <div className="empty-state">
          <h2>No teams yet</h2>
          <p className="muted">
            Create a team for your department below, or ask a team admin to invite you: the e-mailed link brings you
            here.
          </p>
        </div>
      ) : (
        <section className="card team-section" aria-labelledby="my-teams-title">
          <h2 id="my-teams-title" className="section-title">
            Your teams
          </h2>
          <ul className="team-list">
            {list.map((t) => (
              <li key={t.id}>
                <span className="team-list-name">{t.name}</span>
                <span className="muted">{ROLE_LABEL[t.role]}</span>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => setSpace({ teamId: t.id, name: t.name })}
                >
                  Switch to this team
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <CreateTeamForm />
    </div>
  );
}
