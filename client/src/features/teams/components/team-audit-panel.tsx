import type { TTeamAuditEntry } from '@contracts/schemas/team';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';

const PAGE = 50;

/** The entry's time in the reader's locale; the id orders entries, the time is for people. */
const when = (at: string) => new Date(at).toLocaleString();

const OBJECT_NOUN: Record<string, string> = {
  team: 'team',
  user: 'account',
  team_invitation: 'invitation',
  chat: 'chat',
  analysis: 'analysis',
  patient_profile: 'patient profile',
  stored_image: 'image',
  dicom_instance: 'DICOM instance',
  api_key: 'API key',
};

/**
 * The object as the server named it; one it did not name (gone, or not this reader's to see) is
 * only its kind, never its id. An entry about no one row (a list read) names just the kind.
 */
function objectText(e: TTeamAuditEntry): string {
  if (!e.objectType) return '—';
  if (e.objectName) return e.objectName;
  const noun = OBJECT_NOUN[e.objectType] ?? e.objectType.replace(/_/g, ' ');
  return e.objectId ? `${noun} (not shown)` : `${noun}s`;
}

/**
 * Admin only: the team's audit trail (issue 32 part 5), newest first, one keyset page at a time.
 * Who viewed, exported, reviewed or changed roles, with names rather than ids (issue 41 part 6):
 * the server names what this admin may see, and never a patient (a chat is "chat of <date>").
 */
export function TeamAuditPanel({ teamId }: { teamId: string }) {
  const audit = trpc.team.audit.useInfiniteQuery(
    { teamId, limit: PAGE },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const entries: TTeamAuditEntry[] = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="card team-section" aria-labelledby="team-audit-title">
      <h2 id="team-audit-title" className="section-title">
        Audit trail
      </h2>
      {audit.isPending ? (
        <Spinner label="Loading the audit trail..." />
      ) : audit.isError ? (
        <div role="alert">
          <p>Could not load the audit trail.</p>
          <button type="button" className="button button-secondary" onClick={() => void audit.refetch()}>
            Try again
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="muted">Nothing recorded for this team yet.</p>
      ) : (
        <div className="team-table-wrap">
          <table className="team-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Object</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="team-audit-entry">
                  <td>{when(e.at)}</td>
                  <td>
                    {e.actor.name ?? (e.actor.userId ? 'Unknown' : 'Deleted account')}
                    {e.actor.email ? <span className="muted team-audit-email">{e.actor.email}</span> : null}
                  </td>
                  <td>{e.action}</td>
                  <td className="team-email">{objectText(e)}</td>
                  <td>{e.outcome === 'success' ? 'Done' : 'Refused'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {audit.hasNextPage ? (
        <button
          type="button"
          className="button button-secondary"
          disabled={audit.isFetchingNextPage}
          onClick={() => void audit.fetchNextPage()}
        >
          {audit.isFetchingNextPage ? 'Loading...' : 'Older entries'}
        </button>
      ) : null}
    </section>
  );
}
