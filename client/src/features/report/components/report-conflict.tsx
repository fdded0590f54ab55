import type { TReportSections } from '@contracts/schemas/report';
import { SECTION_LABELS } from './report-sections';

/**
 * A save or signature the server refused (409, issue 49): its words (who changed the report and
 * when, or who reads the study), a Reload to see their changes, and the reader's own text kept
 * beside the report once reloaded, so nothing they wrote is lost.
 */
export function ReportConflict({
  message,
  kept,
  onReload,
}: {
  message: string | null;
  kept: TReportSections | null;
  onReload: (() => void) | null;
}) {
  if (!message && !kept) return null;
  return (
    <div className="report-conflict" data-testid="report-conflict">
      {message ? (
        <p role="alert" className="report-conflict-message">
          {message}
        </p>
      ) : null}
      {onReload ? (
        <button type="button" className="button button-secondary" onClick={onReload}>
          Reload the report
        </button>
      ) : null}
      {kept ? (
        <details className="report-kept" open>
          <summary>Your unsaved text</summary>
          <dl className="report-sections">
            {SECTION_LABELS.map((s) => (
              <div key={s.key} className="report-section">
                <dt>{s.label}</dt>
                <dd>{kept[s.key]}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}
