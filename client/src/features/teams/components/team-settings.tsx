import type { TTeam } from '@contracts/schemas/team';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { AeTitlePanel } from './ae-title-panel';
import { InvitationsPanel } from './invitations-panel';
import { LeaveTeam } from './leave-team';
import { MembersPanel } from './members-panel';

/** One team's page: members and roles; for an admin also invitations and DICOM routing. */
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
      <LeaveTeam teamId={team.id} teamName={team.name} />
    </>
  );
}
