import { useState } from 'react';
import type { TApiKey } from '@contracts/schemas/api-key';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { KeyShownOnce } from '../../../components/key-shown-once';
import { KeyTable, type TKeyColumn } from '../../../components/key-table';
import { useApiKeys } from '../hooks/use-api-keys';
import { ApiKeyNameForm } from './api-key-name-form';
import './api-keys-panel.css';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

const COLUMNS: TKeyColumn<TApiKey>[] = [
  { header: 'Name', cell: (k) => k.name },
  { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
  { header: 'Created', cell: (k) => when(k.createdAt) },
  { header: 'Last used', cell: (k) => when(k.lastUsedAt) },
];

/**
 * Settings → API keys: personal keys for programs (the batch command, PACS bridges). A key works
 * as `Authorization: Bearer cxr_…` on the REST API; it cannot change the account or manage keys.
 */
export function ApiKeysPanel() {
  const keys = useApiKeys();
  const [revoking, setRevoking] = useState<TApiKey | null>(null);
  const confirmRevoke = () => {
    if (revoking) keys.revoke(revoking.id, () => setRevoking(null));
  };

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
      {keys.created ? (
        <KeyShownOnce id="api-key-value" label="Your new API key" value={keys.created} onDone={keys.dismiss} />
      ) : null}
      <ApiKeyNameForm
        id="api-key-name"
        className="api-key-form"
        hint="Where the key will be used, e.g. 'Research batch laptop'"
        submitLabel="Create API key"
        form={keys.form}
      />
      {keys.loading ? (
        <p className="muted">Loading API keys...</p>
      ) : keys.keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <KeyTable
          rows={keys.keys}
          columns={COLUMNS}
          action={{ text: 'Revoke', label: (k) => `Revoke API key ${k.name}`, onClick: setRevoking }}
        />
      )}
      <ConfirmDialog
        open={revoking !== null}
        type="danger"
        title="Revoke API key?"
        message={`Programs using "${revoking?.name ?? ''}" will stop working at once. This cannot be undone.`}
        confirmLabel="Revoke"
        processing={keys.revoking}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
