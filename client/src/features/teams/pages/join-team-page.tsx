import { useState } from 'react';
import { navigate, useSearch } from 'wouter/use-browser-location';
import { TEAM_MESSAGES } from '@contracts/schemas/team';
import { useToast } from '../../../components/toast/use-toast';
import './teams-page.css';
import { setSpace } from '../../../lib/current-space';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

/**
 * /chat/teams/join?token=…: the invitation link (server/src/services/mail/team-invitation-mail.ts
 * sends /teams/join, which forwards here). Inside /chat, so a visitor who is not signed in goes to
 * /login and comes back to this link afterwards; only the invited address can accept.
 */
export function JoinTeamPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const me = trpc.auth.me.useQuery();
  const utils = trpc.useUtils();
  const toast = useToast();
  const join = trpc.team.join.useMutation();
  const [error, setError] = useState<string | null>(token ? null : TEAM_MESSAGES.invitationInvalid);
  const accept = () =>
    join.mutate(
      { token },
      {
        onSuccess: (team) => {
          toast.success(TEAM_MESSAGES.joined);
          // The list first: the space guard would take a team missing from it for one the user lost.
          void refreshQuery(utils.team.list).then(() => {
            setSpace({ teamId: team.id, name: team.name });
            navigate('/chat/worklist', { replace: true });
          });
        },
        onError: (err) => setError(errorText(err, 'Failed to join the team')),
      },
    );
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Join a team</h1>
          <p className="muted">
            You are signed in as <strong>{me.data?.user.email ?? '…'}</strong>. The invitation must have been sent to
            this address.
          </p>
        </div>
      </header>
      <section className="card team-join">
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p>Accept the invitation to see the team&apos;s patients, chats and worklist.</p>
        )}
        <div className="team-join-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={!token || join.isPending || join.isSuccess}
            onClick={accept}
          >
            {join.isPending ? 'Joining...' : 'Accept invitation'}
          </button>
          <button type="button" className="button button-secondary" onClick={() => navigate('/chat/profiles')}>
            Not now
          </button>
        </div>
      </section>
    </div>
  );
}
