import { useState } from 'react';
import { API_KEY_MESSAGES, ZCreateApiKeyInput, type TApiKey } from '@contracts/schemas/api-key';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { describedBy, Field } from '../../../components/field';
import { Form } from '../../../components/form';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { useZodForm } from '../../../lib/use-zod-form';
import './api-keys-panel.css';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/** The key just created: shown once, with a copy button, until the user dismisses it. */
function NewKey({ apiKey, onDone }: { apiKey: string; onDone: () => void }) {
  const toast = useToast();
  const copy = () =>
    navigator.clipboard.writeText(apiKey).then(
      () => toast.success('API key copied'),
      () => toast.error('Could not copy; select the key and copy it by hand'),
    );
  return (
    <div className="card api-key-new" role="status">
      <p>
        <strong>{API_KEY_MESSAGES.created}</strong>
      </p>
      <Field id="api-key-value" label="Your new API key">
        <input
          id="api-key-value"
          className="input"
          readOnly
          value={apiKey}
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
        />
      </Field>
      <div className="api-key-actions">
        <button type="button" className="button button-primary" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/**
 * Settings → API keys: personal keys for programs (the batch command, PACS bridges). A key works
 * as `Authorization: Bearer cxr_…` on the REST API; it cannot change the account or manage keys.
 */
export function ApiKeysPanel() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const list = trpc.apiKey.list.useQuery();
  const revoke = trpc.apiKey.revoke.useMutation();
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const form = useZodForm({
    schema: ZCreateApiKeyInput,
    initialValues: { name: '' },
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

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(
      { id: revoking.id },
      {
        onSuccess: () => {
          toast.success(API_KEY_MESSAGES.revoked);
          setRevoking(null);
          void utils.apiKey.list.invalidate();
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to revoke API key'));
          setRevoking(null);
        },
      },
    );
  };

  const keys = list.data?.keys ?? [];
  return (
    <section className="api-keys-panel" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" className="section-title">
        API keys
      </h2>
      <p className="muted">
        For programs such as <code>npm run batch</code>: send a key as <code>Authorization: Bearer cxr_…</code>. A key
        can upload images and read your chats, but cannot change your account. The API is described at{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          /api/docs
        </a>
        .
      </p>
      {created ? <NewKey apiKey={created} onDone={() => setCreated(null)} /> : null}
      <Form className="api-key-form" onSubmit={form.submit}>
        <Field
          id="api-key-name"
          label="Key name"
          hint="Where the key will be used, e.g. 'Research batch laptop'"
          error={error}
        >
          <input
            id="api-key-name"
            className="input"
            value={form.values.name}
            maxLength={100}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy('api-key-name', { hint: true, error: Boolean(error) })}
            onChange={(e) => form.setValue('name', e.target.value)}
          />
        </Field>
        <button type="submit" className="button button-primary" disabled={form.pending}>
          {form.pending ? 'Creating...' : 'Create API key'}
        </button>
      </Form>
      {list.isLoading ? (
        <p className="muted">Loading API keys...</p>
      ) : keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <table className="api-key-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{when(k.createdAt)}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="button button-danger-outline"
                    onClick={() => setRevoking(k)}
                    aria-label={`Revoke API key ${k.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={revoking !== null}
        type="danger"
        title="Revoke API key?"
        message={`Programs using "${revoking?.name ?? ''}" will stop working at once. This cannot be undone.`}
        confirmLabel="Revoke"
        processing={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
