import { useState } from 'react';
import { API_KEY_MESSAGES, ZCreateApiKeyInput } from '@contracts/schemas/api-key';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';

/**
 * Admin only: team keys (STOW-RS with one files studies into the team). They are the admin's own
 * keys marked with the team, so they are listed and revoked like personal ones (Settings → API
 * keys shows them too) and stop filing into the team if their creator leaves it.
 */
export function TeamKeysPanel({ teamId }: { teamId: string }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const list = trpc.apiKey.list.useQuery();
  const revoke = trpc.apiKey.revoke.useMutation();
  const [created, setCreated] = useState<string | null>(null);
  const form = useZodForm({
    schema: ZCreateApiKeyInput,
    initialValues: { name: '' },
    toInput: (v) => ({ ...v, team_id: teamId }),
    mutation: trpc.apiKey.create.useMutation(),
    variables: (data) => data,
    onSuccess: (res) => {
      setCreated(res.key);
      form.setValues({ name: '' });
      void utils.apiKey.list.invalidate();
    },
    errorToast: { fallback: 'Failed to create API key' },
  });
  const error = form.error?.message ?? null;
  const keys = (list.data?.keys ?? []).filter((k) => k.teamId === teamId);
  const revokeKey = (id: string) =>
    revoke.mutate(
      { id },
      {
        onSuccess: () => {
          toast.success(API_KEY_MESSAGES.revoked);
          void utils.apiKey.list.invalidate();
        },
        onError: (err) => toast.error(errorText(err, 'Failed to revoke API key')),
      },
    );
  return (
    <section className="card team-section" aria-labelledby="team-keys-title">
      <h2 id="team-keys-title" className="section-title">
        Team API keys
      </h2>
      <p className="muted">A PACS bridge sending studies by STOW-RS with a team key files them into this team.</p>
      {created ? (
        <div className="card" role="status">
          <p>
            <strong>{API_KEY_MESSAGES.created}</strong>
          </p>
          <code className="team-key-value">{created}</code>
          <button type="button" className="button button-secondary" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      ) : null}
      <Form className="team-inline-form" onSubmit={form.submit}>
        <Field id="team-key-name" label="Key name" hint="Where it will be used, e.g. 'PACS router'" error={error}>
          <input
            id="team-key-name"
            className="input"
            value={form.values.name}
            maxLength={100}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy('team-key-name', { hint: true, error: Boolean(error) })}
            onChange={(e) => form.setValue('name', e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-primary" disabled={form.pending}>
          {form.pending ? 'Creating...' : 'Create team key'}
        </button>
      </Form>
      {keys.length === 0 ? (
        <p className="muted">No team keys yet.</p>
      ) : (
        <ul className="team-list" aria-label="Team API keys">
          {keys.map((k) => (
            <li key={k.id}>
              <span className="team-list-name">{k.name}</span>
              <code>{k.prefix}…</code>
              <button
                type="button"
                className="button button-danger-outline"
                disabled={revoke.isPending}
                aria-label={`Revoke API key ${k.name}`}
                onClick={() => revokeKey(k.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
