import { useState } from 'react';
import type { TSetStowForwardingInput, TStowForwardingList } from '@contracts/schemas/stow-forwarding';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { localTime } from '../../../lib/local-time';
import { trpc } from '../../../lib/trpc';

/**
 * STOW forwarding on Settings → Site (issue 49 item 7; issue 36 S2): whose STOW-RS results (an
 * account's personal space by e-mail, or a team) also go to the PACS, with Stop beside each.
 * DIMSE results always go; this list is only for studies sent over the web.
 */
export function StowForwardingPanel({ list, pacsConfigured }: { list: TStowForwardingList; pacsConfigured: boolean }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const teams = trpc.team.list.useQuery();
  const [email, setEmail] = useState('');
  const [teamId, setTeamId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const set = trpc.site.setStowForwarding.useMutation();
  const change = (input: TSetStowForwardingInput, done?: () => void) =>
    set.mutate(input, {
      onSuccess: (next) => {
        setError(null);
        done?.();
        toast.success(input.forward ? 'Forwarding to the PACS' : 'Forwarding stopped');
        utils.site.destinations.setData(undefined, (old) => (old ? { ...old, stowForwarding: next } : old));
      },
      onError: (err) => setError(errorText(err, 'Could not change forwarding')),
    });
  const rows = [
    ...list.teams.map((t) => ({ key: t.teamId, who: `Team ${t.name}`, since: t.since, input: { teamId: t.teamId } })),
    ...list.items.map((u) => ({
      key: u.userId,
      who: `${u.name} <${u.email}>`,
      since: u.since,
      input: { email: u.email },
    })),
  ];
  const offered = (teams.data?.teams ?? []).filter((t) => !list.teams.some((f) => f.teamId === t.id));
  return (
    <section aria-labelledby="site-stow-title" className="site-propose" data-testid="stow-forwarding">
      <h3 id="site-stow-title" className="site-destination-title">
        STOW forwarding to the PACS
      </h3>
      <p className="muted small">
        Results of studies sent by STOW-RS go to the PACS only for the accounts and teams listed here (studies sent over
        DICOM always go back).{pacsConfigured ? '' : ' No PACS is configured, so nothing goes yet.'}
      </p>
      {rows.length === 0 ? (
        <p className="muted">Nobody&apos;s STOW-RS results are forwarded.</p>
      ) : (
        <ul className="team-list" aria-label="Forwarded to the PACS">
          {rows.map((r) => (
            <li key={r.key}>
              <span className="team-list-name">{r.who}</span>
              <span className="muted small">since {localTime(r.since)}</span>
              <button
                type="button"
                className="button button-danger-outline"
                disabled={set.isPending}
                aria-label={`Stop forwarding ${r.who}`}
                onClick={() => change({ ...r.input, forward: false })}
              >
                Stop
              </button>
            </li>
          ))}
        </ul>
      )}
      <Form
        className="team-inline-form"
        onSubmit={() => change({ email: email.trim(), forward: true }, () => setEmail(''))}
      >
        <Field id="stow-email" label="Account email" error={error}>
          <input
            id="stow-email"
            className="input"
            type="email"
            value={email}
            maxLength={254}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy('stow-email', { error: Boolean(error) })}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-secondary" disabled={set.isPending || !email.trim()}>
          Forward this account
        </button>
      </Form>
      {offered.length ? (
        <Form className="team-inline-form" onSubmit={() => change({ teamId, forward: true }, () => setTeamId(''))}>
          <Field id="stow-team" label="Team">
            <select id="stow-team" className="input" value={teamId} onChange={(e) => setTeamId(e.target.value)}>
              <option value="">Choose a team</option>
              {offered.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" className="button button-secondary" disabled={set.isPending || !teamId}>
            Forward this team
          </button>
        </Form>
      ) : null}
    </section>
  );
}
