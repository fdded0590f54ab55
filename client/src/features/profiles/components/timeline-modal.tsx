import type { TProfile } from '@contracts/schemas/profile';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { openChat } from '../../../lib/current-chat';
import { TimelineChart } from './timeline-chart';
import './timeline-modal.css';

interface TTimelineProps {
  profile: TProfile;
  onClose: () => void;
}

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
/** The study's date (its DICOM StudyDate, a calendar day: shown as such, not shifted by the zone), else the upload's. */
const studyDateOf = (e: { study_date: string | null; created_at: string }) =>
  e.study_date
    ? new Date(`${e.study_date}T12:00:00Z`).toLocaleDateString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      })
    : dateOf(e.created_at);

/**
 * A patient's timeline (issue 18): every completed analysis of the profile, oldest first, with
 * its film, date and model version, a link to its chat, and one small trend chart per finding.
 */
export function TimelineModal({ profile, onClose }: TTimelineProps) {
  const timeline = trpc.profile.timeline.useQuery({ profileId: profile.id });
  const entries = timeline.data?.analyses ?? [];
  return (
    <Modal open title={`Timeline: ${profile.patientName}`} onClose={onClose} className="timeline-modal">
      {timeline.isPending ? (
        <Spinner label="Loading timeline..." />
      ) : timeline.error ? (
        <p role="alert">The timeline could not be loaded.</p>
      ) : entries.length === 0 ? (
        <p className="muted">
          No completed analysis for this patient yet. Analyses started from this profile appear here.
        </p>
      ) : (
        <>
          <ol className="timeline-list" aria-label="Analyses, oldest first">
            {entries.map((e) => (
              <li key={e.analysis_id} className="timeline-item">
                {e.image_url ? (
                  <img src={e.image_url} alt={`X-ray of ${studyDateOf(e)}`} className="timeline-thumb" loading="lazy" />
                ) : null}
                <div className="timeline-item-text">
                  <time dateTime={e.study_date ?? e.created_at}>
                    {studyDateOf(e)}
                    {e.study_date ? '' : ' (uploaded)'}
                  </time>
                  <span className="muted">Model {e.model_version}</span>
                  {e.ctr !== undefined ? <span className="muted">CTR {e.ctr.toFixed(2)}</span> : null}
                  <button type="button" className="button button-link" onClick={() => openChat(e.chat_id)}>
                    Open chat
                  </button>
                  {e.signed_report ? (
                    // The signed report says what the study showed; the trend below is the AI's output (issue 49).
                    <span className="timeline-signed" data-testid="timeline-signed">
                      Signed{e.signed_report.signed_by ? ` by ${e.signed_report.signed_by}` : ''}
                      {e.signed_report.status === 'amended' ? ' (amended)' : ''}: {e.signed_report.lead}
                    </span>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
          <h3 className="timeline-subtitle">Per-finding trend</h3>
          <p className="muted">The AI&apos;s output for each film, before any radiologist&apos;s report.</p>
          <div className="timeline-charts">
            {(timeline.data?.labels ?? []).map((l) => (
              <TimelineChart key={l.label} label={l.label} display={l.display} entries={entries} />
            ))}
          </div>
        </>
      )}
    </Modal>
  );
}
