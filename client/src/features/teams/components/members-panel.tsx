import { useState } from 'react';
import { TEAM_MESSAGES, TEAM_ROLES, type TTeamMember, type TTeamRole } from '@contracts/schemas/team';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { ROLE_LABEL } from './space-switcher';

interface TMembersPanelProps {
  teamId: string;
  teamName: string;
  members: TTeamMember[];
  isAdmin: boolean;
  myId: string;
}

/** The team's members with their roles; an admin changes roles and removes members here. */
export function MembersPanel({ teamId, teamName, members, isAdmin, myId }: TMembersPanelProps) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const changeRole = trpc.team.changeRole.useMutation();
  const remove = trpc.team.removeMember.useMutation();
  const [removing, setRemoving] = useState<TTeamMember | null>(null);
  const refresh = () => void refreshQuery(utils.team.members, { teamId });

  const setRole = (m: TTeamMember, role: TTeamRole) =>
    changeRole.mutate(
      { teamId, userId: m.userId, role },
      {
        onSuccess: () => {
          toast.success(TEAM_MESSAGES.roleChanged);
          refresh();
          if (m.userId === myId) void refreshQuery(utils.team.list);
        },
        onError: (err) => toast.error(errorText(err, 'Failed to change role')),
      },
    );

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(
      { teamId, userId: removing.userId },
      {
        onSuccess: () => {
          toast.success(TEAM_MESSAGES.removed);
          setRemoving(null);
          refresh();
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to remove member'));
          setRemoving(null);
        },
      },
    );
  };

  return (
    <section className="card team-section" aria-labelledby="members-title">
      <h2 id="members-title" className="section-title">
        Members
      </h2>
      <div className="team-table-wrap">
        <table className="team-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              {isAdmin ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId} data-testid="team-member">
                <td>
                  {m.name}
                  {m.userId === myId ? <span className="muted"> (you)</span> : null}
                </td>
                <td className="team-email">{m.email}</td>
                <td>
                  {isAdmin ? (
                    <select
                      className="input team-role-select"
                      aria-label={`Role of ${m.name}`}
                      value={m.role}
                      disabled={changeRole.isPending}
                      onChange={(e) => setRole(m, e.target.value as TTeamRole)}
                    >
                      {TEAM_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABEL[r]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLE_LABEL[m.role]
                  )}
                </td>
                {isAdmin ? (
                  <td>
                    {m.userId === myId ? null : (
                      <button
                        type="button"
                        className="button button-danger-outline"
                        aria-label={`Remove ${m.name}`}
                        onClick={() => setRemoving(m)}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={removing !== null}
        type="danger"
        title="Remove member?"
        message={`${removing?.name ?? ''} will lose access to ${teamName}'s patients, chats and worklist at once.`}
        confirmLabel="Remove"
        processing={remove.isPending}
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
