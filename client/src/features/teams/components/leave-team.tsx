import { useState } from 'react';
import { TEAM_MESSAGES } from '@contracts/schemas/team';
import { navigate } from 'wouter/use-browser-location';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toast/use-toast';
import { setSpace } from '../../../lib/current-space';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

/** Any member may leave (the last admin is refused with the server's message). */
export function LeaveTeam({ teamId, teamName }: { teamId: string; teamName: string }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const leave = trpc.team.leave.useMutation();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    leave.mutate(
      { teamId },
      {
        onSuccess: () => {
          setAsking(false);
          setSpace(null);
          toast.success(TEAM_MESSAGES.left);
          void refreshQuery(utils.team.list);
          navigate('/chat/profiles');
        },
        onError: (err) => {
          setAsking(false);
          toast.error(errorText(err, 'Failed to leave the team'));
        },
      },
    );
  return (
    <section className="card team-section" aria-labelledby="leave-title">
      <h2 id="leave-title" className="section-title">
        Leave team
      </h2>
      <p className="muted">
        You lose access to the team&apos;s patients, chats and worklist. Your personal space stays.
      </p>
      <button type="button" className="button button-danger-outline" onClick={() => setAsking(true)}>
        Leave team
      </button>
      <ConfirmDialog
        open={asking}
        type="danger"
        title="Leave team?"
        message={`You will no longer see ${teamName}'s patients, chats and worklist.`}
        confirmLabel="Leave"
        processing={leave.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      />
    </section>
  );
}
