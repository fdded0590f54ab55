import { KeyShownOnce } from '../../../components/key-shown-once';
import { ApiKeyNameForm } from '../../settings/components/api-key-name-form';
import { useApiKeys } from '../../settings/hooks/use-api-keys';

/**
 * Admin only: team keys (STOW-RS with one files studies into the team). They are the admin's own
 * keys marked with the team, so they are listed and revoked like personal ones (Settings → API
 * keys shows them too) and stop filing into the team if their creator leaves it.
 */
export function TeamKeysPanel({ teamId }: { teamId: string }) {
  const keys = useApiKeys(teamId);
  return (
    <section className="card team-section" aria-labelledby="team-keys-title">
      <h2 id="team-keys-title" className="section-title">
        Team API keys
      </h2>
      <p className="muted">A PACS bridge sending studies by STOW-RS with a team key files them into this team.</p>
      {keys.created ? (
        <KeyShownOnce
          id="team-key-value"
          label="Your new team key"
          value={keys.created}
          valueClassName="team-key-value"
          onDone={keys.dismiss}
        />
      ) : null}
      <ApiKeyNameForm
        id="team-key-name"
        className="team-inline-form"
        hint="Where it will be used, e.g. 'PACS router'"
        submitLabel="Create team key"
        form={keys.form}
      />
      {keys.keys.length === 0 ? (
        <p className="muted">No team keys yet.</p>
      ) : (
        <ul className="team-list" aria-label="Team API keys">
          {keys.keys.map((k) => (
            <li key={k.id}>
              <span className="team-list-name">{k.name}</span>
              <code>{k.prefix}…</code>
              <button
                type="button"
                className="button button-danger-outline"
                disabled={keys.revoking}
                aria-label={`Revoke API key ${k.name}`}
                onClick={() => keys.revoke(k.id)}
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
