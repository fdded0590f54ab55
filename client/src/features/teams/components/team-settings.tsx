import type { TTeam } from '@contracts/schemas/team';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { AeTitlePanel } from './ae-title-panel';
import { InvitationsPanel } from './invitations-panel';
import { LeaveTeam } from './leave-team';
import { MembersPanel } from './members-panel';
import { TeamAuditPanel } from './team-audit-panel';
import { TeamKeysPanel } from './team-keys-panel';

/** One team's page: members and roles; for an admin also invitations, DICOM routing, team keys and the audit trail. */
export function TeamSettings({ team, myId }: { team: TTeam; myId: string }) {
  const isAdmin = team.role === 'admin';
  const members = trpc.team.members.useQuery({ teamId: team.id });
  return (
    <>
      {members.isPending ? (
        <Spinner label="Loading members..." />
      ) : members.isError ? (
        <div className="empty-state" role="alert">
          <h2>Could not load the members</h2>
          <button type="button" className="button button-secondary" onClick={() => void members.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <MembersPanel
            teamId={team.id}
            teamName={team.name}
            members={members.data.members}
            isAdmin={isAdmin}
            myId={myId}
          />
          {isAdmin ? <InvitationsPanel teamId={team.id} invitations={members.data.invitations} /> : null}
        </>
      )}
      {isAdmin ? <AeTitlePanel key={team.id} teamId={team.id} aeTitle={team.aeTitle} /> : null}
      {isAdmin ? <TeamKeysPanel teamId={team.id} /> : null}
      {isAdmin ? <TeamAuditPanel key={team.id} teamId={team.id} /> : null}
      <LeaveTeam teamId={team.id} teamName={team.name} />
    </>
  );
}
