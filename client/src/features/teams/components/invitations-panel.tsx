import { TEAM_MESSAGES, TEAM_ROLES, ZInviteInput, type TTeamMembers, type TTeamRole } from '@contracts/schemas/team';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import { ROLE_LABEL } from './space-switcher';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Admin only: invite an address with a role (an e-mailed link, valid once for 7 days), or withdraw one. */
export function InvitationsPanel({
  teamId,
  invitations,
}: {
  teamId: string;
  invitations: TTeamMembers['invitations'];
}) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const revoke = trpc.team.revokeInvitation.useMutation();
  const withdraw = (invitationId: string) =>
    revoke.mutate(
      { teamId, invitationId },
      {
        onSuccess: () => {
          toast.success(TEAM_MESSAGES.invitationRevoked);
          void refreshQuery(utils.team.members, { teamId });
        },
        onError: (err) => toast.error(errorText(err, 'Failed to withdraw invitation')),
      },
    );
  const form = useZodForm({
    schema: ZInviteInput,
    initialValues: { email: '', role: 'radiologist' as TTeamRole },
    toInput: (v) => ({ ...v, teamId }),
    mutation: trpc.team.invite.useMutation(),
    variables: (data) => data,
    onSuccess: () => {
      toast.success(TEAM_MESSAGES.invited);
      form.setValues((v) => ({ ...v, email: '' }));
      void refreshQuery(utils.team.members, { teamId });
    },
    errorToast: { fallback: 'Failed to send invitation' },
  });
  const emailError = form.fieldError('email');
  return (
    <section className="card team-section" aria-labelledby="invitations-title">
      <h2 id="invitations-title" className="section-title">
        Invitations
      </h2>
      <Form className="team-inline-form" onSubmit={form.submit}>
        <Field id="invite-email" label="Email" hint="They accept by signing in with this address" error={emailError}>
          <input
            id="invite-email"
            className="input"
            type="email"
            autoComplete="off"
            value={form.values.email}
            maxLength={254}
            aria-invalid={Boolean(emailError)}
            aria-describedby={describedBy('invite-email', { hint: true, error: Boolean(emailError) })}
            onChange={(e) => form.setValue('email', e.target.value)}
          />
        </Field>
        <Field id="invite-role" label="Role">
          <select
            id="invite-role"
            className="input"
            value={form.values.role}
            onChange={(e) => form.setValue('role', e.target.value as TTeamRole)}
          >
            {TEAM_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="button button-primary" disabled={form.pending}>
          {form.pending ? 'Sending...' : 'Send invitation'}
        </button>
      </Form>
      {invitations.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <ul className="team-invitations" aria-label="Pending invitations">
          {invitations.map((i) => (
            <li key={i.id}>
              <span className="team-email">{i.email}</span> · {ROLE_LABEL[i.role]} ·{' '}
              <span className="muted">expires {day(i.expiresAt)}</span>{' '}
              <button
                type="button"
                className="button button-danger-outline"
                aria-label={`Withdraw the invitation to ${i.email}`}
                disabled={revoke.isPending}
                onClick={() => withdraw(i.id)}
              >
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
