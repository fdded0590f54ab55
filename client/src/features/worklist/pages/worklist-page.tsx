import { worklistLeadText } from '@contracts/finding-story';
import { useEffect, useRef, useState } from 'react';
import type { TTeamRole } from '@contracts/schemas/team';
import type { TUrgency, TWorklistItem, TWorklistReader, TWorklistStatus } from '@contracts/schemas/worklist';
import { Spinner } from '../../../components/spinner';
import { useCurrentSpace } from '../../../lib/current-space';
import { trpc } from '../../../lib/trpc';
import { openChat } from '../../../lib/current-chat';
import { localTime } from '../../../lib/local-time';
import { ReadingControl } from '../components/reading-control';
import { waitingText } from '../lib/waiting-text';
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
const FILTERS: { label: string; urgencies?: TUrgency[]; statuses?: TWorklistStatus[] }[] = [
  { label: 'All' },
  { label: 'Urgent', urgencies: ['urgent'] },
  { label: 'To review', urgencies: ['urgent', 'review'] },
  { label: 'In progress', statuses: ['received', 'queued'] },
  { label: 'Failed or skipped', statuses: ['failed', 'skipped'] },
];

/** The waiting time's clock: a minute is its smallest unit. */
const TICK_MS = 30_000;

function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Reviewed, or its report signed (issue 41): out of the unread part. */
const isDone = (item: TWorklistItem) =>
  item.review !== null || (item.report !== null && item.report.status !== 'draft');

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

function Row({
  item,
  reading,
  now,
  onActed,
}: {
  item: TWorklistItem;
  reading: TReading | null;
  now: number;
  onActed: () => void;
}) {
  const open = item.chatId ? () => openChat(item.chatId!) : undefined;
  const done = isDone(item);
  // A signed study's reading is over (issue 49): no "Being read by", Release or Mark reviewed.
  const signed = item.report !== null && item.report.status !== 'draft';
  const received = localTime(item.receivedAt);
  return (
    <tr className={`worklist-row urgency-${item.urgency}${done ? ' is-done' : ''}`} data-testid="worklist-row">
      <td>
        <span className={`urgency-badge urgency-${item.urgency}`}>{URGENCY_LABEL[item.urgency]}</span>
        {item.urgentBecause.length > 0 ? (
          // Issue 48: why the row is Urgent, by the names of the urgent findings that made it so.
          <div className="worklist-urgent-because small" data-testid="worklist-urgent-because">
            {item.urgentBecause.map((f) => f.display).join(', ')}
          </div>
        ) : null}
      </td>
      <td>
        {open ? (
          <button type="button" className="link-button" onClick={open}>
            {item.patientName ?? 'Unknown patient'}
          </button>
        ) : (
          (item.patientName ?? 'Unknown patient')
        )}
        <div className="worklist-patient-id" data-testid="worklist-patient-id">
          {item.patientId ? `ID ${item.patientId}` : 'No patient ID'}
        </div>
      </td>
      <td data-testid="worklist-accession">{item.accessionNumber ?? <span className="muted">—</span>}</td>
      <td data-testid="worklist-study-date">
        {item.studyDate ?? <span className="muted">—</span>}
        <div className="muted small">
          {[
            [item.modality, item.viewPosition].filter(Boolean).join(' '),
            item.source === 'upload' ? 'Uploaded' : (item.callingAe ?? 'STOW-RS'),
          ]
            .filter(Boolean)
            .join(' · ')}
        </div>
      </td>
      <td data-testid="worklist-waiting">
        <span title={`Received ${received}`}>{done ? 'Read' : waitingText(now - Date.parse(item.receivedAt))}</span>
      </td>
      <td data-testid="worklist-lead">
        {item.report?.lead ? (
          // Signed: the radiologist's first impression line leads the row, never the AI's flag (issue 49).
          <span title="From the signed report">Signed: {item.report.lead}</span>
        ) : item.lead ? (
          worklistLeadText(item.lead)
        ) : (
          <span className="muted">
            {item.urgency === 'review' || item.urgency === 'routine' ? worklistLeadText(null) : '—'}
          </span>
        )}
        <div>
          <span className={`status-pill status-${item.status}`}>{STATUS_LABEL[item.status]}</span>
        </div>
        {item.reason ? <div className="worklist-reason">{item.reason}</div> : null}
      </td>
      <td data-testid="worklist-reader">
        {reading && !signed ? (
          <ReadingControl item={item} myId={reading.myId} role={reading.role} onActed={onActed} />
        ) : item.review ? (
          `Reviewed by ${item.review.name}`
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-testid="worklist-report">{reportText(item.report)}</td>
    </tr>
  );
}

/**
 * The reading room's list (issue 41): unread first, most urgent then longest waiting; the signed
 * and reviewed behind a filter; one click opens the study in the viewer.
 */
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
  // Issue 41: the signed and reviewed are out of the way unless asked for (then after the unread).
  const [showDone, setShowDone] = useState(false);
  const now = useNow();
  const list = trpc.worklist.list.useQuery(
    {
      urgencies: chosen.urgencies,
      statuses: chosen.statuses,
      reviewed: showDone ? undefined : false,
      team,
      ...(team ? { reader } : {}),
    },
    { refetchInterval: POLL_MS },
  );
  const items = list.data?.items ?? [];
  // Issue 49: an empty unread list over a worklist of read studies says so (not "No studies").
  const read = trpc.worklist.list.useQuery(
    { urgencies: chosen.urgencies, statuses: chosen.statuses, reviewed: true, team, limit: 1 },
    { enabled: list.isSuccess && items.length === 0 && !showDone && (!team || reader === 'anyone') },
  );
  const allRead = !showDone && (read.data?.items.length ?? 0) > 0;
  // The row whose reading changed: if it left the list (reviewed, with the done hidden), focus
  // goes to the row now in its place, or to the heading, not to <body>.
  const acted = useRef<number | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const index = acted.current;
    if (index === null || list.isFetching) return;
    acted.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const rows = document.querySelectorAll<HTMLElement>('[data-testid="worklist-row"]');
    const row = rows[Math.min(index, rows.length - 1)];
    (row?.querySelector<HTMLElement>('button:not([disabled])') ?? heading.current)?.focus();
  }, [list.data, list.isFetching]);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title" id="worklist-heading" ref={heading} tabIndex={-1}>
            {space ? `Worklist — ${space.name}` : 'Worklist'}
          </h1>
          <p className="muted">
            {space
              ? "The team's studies (from the DICOM network and uploaded here), unread first: most urgent, then longest waiting. Assistive — not a diagnosis."
              : 'Studies received from the DICOM network, unread first: most urgent, then longest waiting. Assistive — not a diagnosis.'}
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
        <label className="worklist-done-toggle">
          <input type="checkbox" checked={showDone} onChange={(e) => setShowDone(e.target.checked)} />
          Show signed and reviewed
        </label>
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
      ) : items.length === 0 && allRead ? (
        <div className="empty-state" data-testid="worklist-all-read">
          <h2>All studies are read</h2>
          <p className="muted">Every study here is signed or reviewed: tick “Show signed and reviewed” to see them.</p>
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
                <th scope="col">Accession</th>
                <th scope="col">Study date</th>
                <th scope="col">Waiting</th>
                <th scope="col">Lead finding</th>
                <th scope="col">Reader</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item, index) => (
                <Row key={item.id} item={item} reading={reading} now={now} onActed={() => (acted.current = index)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
