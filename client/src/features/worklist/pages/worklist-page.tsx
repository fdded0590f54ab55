import { worklistLeadText } from '@contracts/finding-story';
import { useState } from 'react';
import type { TTeamRole } from '@contracts/schemas/team';
import type { TUrgency, TWorklistItem, TWorklistReader, TWorklistStatus } from '@contracts/schemas/worklist';
import { Spinner } from '../../../components/spinner';
import { useCurrentSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import { openChat } from '../../../lib/current-chat';
import { ReadingControl } from '../components/reading-control';
import './worklist-page.css';

/** Live enough for a reading room without a socket per screen. */
const POLL_MS = 5000;

const URGENCY_LABEL: Record<TUrgency, string> = {
  urgent: 'Urgent',
  review: 'Review',
  routine: 'Routine',
  pending: 'Pending',
  none: '—',
};
const STATUS_LABEL: Record<TWorklistStatus, string> = {
  received: 'Received',
  queued: 'Queued',
  analysed: 'Analysed',
  sent: 'Sent to PACS',
  failed: 'Failed',
  skipped: 'Skipped',
};
const FILTERS: { label: string; urgencies?: TUrgency[]; statuses?: TWorklistStatus[]; reviewed?: boolean }[] = [
  { label: 'All' },
  // Neither reviewed nor signed (issue 41): what is left to read.
  { label: 'Unread', reviewed: false },
  { label: 'Urgent', urgencies: ['urgent'] },
  { label: 'To review', urgencies: ['urgent', 'review'] },
  { label: 'In progress', statuses: ['received', 'queued'] },
  { label: 'Failed or skipped', statuses: ['failed', 'skipped'] },
  { label: 'Reviewed or signed', reviewed: true },
];

function time(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/** The report column: 'Signed by …' once signed (issue 41), else where the draft stands. */
function reportText(report: TWorklistItem['report']): string {
  if (!report) return '—';
  if (report.status === 'draft') return 'Draft';
  return `${report.status === 'amended' ? 'Amended. ' : ''}Signed by ${report.signedBy ?? 'a former member'}`;
}

/** In a team's worklist: who is reading each study, and the caller's role to act on it. */
interface TReading {
  myId: string;
  role: TTeamRole;
}

const READERS: { value: TWorklistReader; label: string }[] = [
  { value: 'anyone', label: 'Any reader' },
  { value: 'mine', label: 'Claimed by me' },
  { value: 'unclaimed', label: 'Unclaimed' },
];

function Row({ item, reading }: { item: TWorklistItem; reading: TReading | null }) {
  const open = item.chatId ? () => openChat(item.chatId!) : undefined;
  return (
    <tr className={`worklist-row urgency-${item.urgency}`} data-testid="worklist-row">
      <td>
        <span className={`urgency-badge urgency-${item.urgency}`}>{URGENCY_LABEL[item.urgency]}</span>
      </td>
      <td>
        {open ? (
          <button type="button" className="link-button" onClick={open}>
            {item.patientName ?? 'Unknown patient'}
          </button>
        ) : (
          (item.patientName ?? 'Unknown patient')
        )}
      </td>
      <td>
        {item.lead ? (
          worklistLeadText(item.lead)
        ) : (
          <span className="muted">
            {item.urgency === 'review' || item.urgency === 'routine' ? worklistLeadText(null) : '—'}
          </span>
        )}
      </td>
      <td>
        <span className={`status-pill status-${item.status}`}>{STATUS_LABEL[item.status]}</span>
        {item.reason ? <div className="worklist-reason">{item.reason}</div> : null}
      </td>
      <td className="muted">
        {[item.modality, item.viewPosition].filter(Boolean).join(' ')} · {item.callingAe ?? 'STOW-RS'}
      </td>
      <td className="muted">{time(item.receivedAt)}</td>
      <td data-testid="worklist-report">{reportText(item.report)}</td>
      {reading ? (
        <td>
          <ReadingControl item={item} myId={reading.myId} role={reading.role} />
        </td>
      ) : null}
    </tr>
  );
}

/** Studies from the DICOM network, most urgent first; one click opens the analysis chat. */
export function WorklistPage() {
  const [filter, setFilter] = useState(0);
  const chosen = FILTERS[filter]!;
  const space = useCurrentSpace();
  const team = space?.teamId;
  const [reader, setReader] = useState<TWorklistReader>('anyone');
  const me = trpc.auth.me.useQuery();
  const teams = trpc.team.list.useQuery(undefined, { enabled: Boolean(team) });
  const role = teams.data?.teams.find((t) => t.id === team)?.role;
  const reading = team && role && me.data ? { myId: me.data.user.id, role } : null;
  const list = trpc.worklist.list.useQuery(
    {
      urgencies: chosen.urgencies,
      statuses: chosen.statuses,
      reviewed: chosen.reviewed,
      team,
      ...(team ? { reader } : {}),
    },
    { refetchInterval: POLL_MS },
  );
  const items = list.data?.items ?? [];
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{space ? `Worklist — ${space.name}` : 'Worklist'}</h1>
          <p className="muted">
            Studies received from the DICOM network, most urgent first. Assistive — not a diagnosis.
          </p>
        </div>
      </header>
      <div className="worklist-filters" role="group" aria-label="Filter the worklist">
        {FILTERS.map((f, i) => (
          <button
            key={f.label}
            type="button"
            className={`chip ${i === filter ? 'chip-active' : ''}`}
            aria-pressed={i === filter}
            onClick={() => setFilter(i)}
          >
            {f.label}
          </button>
        ))}
        {team ? (
          <select
            className="input worklist-reader"
            aria-label="Reader"
            value={reader}
            onChange={(e) => setReader(e.target.value as TWorklistReader)}
          >
            {READERS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {list.isPending ? (
        <Spinner label="Loading worklist..." />
      ) : list.isError ? (
        <div className="empty-state" role="alert">
          <h2>Could not load the worklist</h2>
          <button type="button" className="button button-secondary" onClick={() => void list.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <div className="empty-state">
          <h2>No studies</h2>
          <p className="muted">
            {space
              ? `Studies routed to ${space.name} (by its AE title, or STOW-RS with a team key) appear here.`
              : 'Studies routed to this node from the PACS appear here.'}
          </p>
        </div>
      ) : (
        <div className="worklist-table-wrap">
          <table className="worklist-table">
            <thead>
              <tr>
                <th scope="col">Urgency</th>
                <th scope="col">Patient</th>
                <th scope="col">Lead finding</th>
                <th scope="col">Status</th>
                <th scope="col">Study</th>
                <th scope="col">Received</th>
                <th scope="col">Report</th>
                {reading ? <th scope="col">Reading</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <Row key={item.id} item={item} reading={reading} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
