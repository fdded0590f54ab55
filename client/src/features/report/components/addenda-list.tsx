import { useState } from 'react';
import { REPORT_MESSAGES, type TReport } from '@contracts/schemas/report';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { signedText } from '../lib/signed-text';

/** A signed report's addenda, each with its signer, and (for a reader) the box to sign another. */
export function AddendaList({ report, onAdded }: { report: TReport; onAdded: (r: TReport) => void }) {
  const toast = useToast();
  const [text, setText] = useState('');
  const add = trpc.report.addAddendum.useMutation({
    onSuccess: (r) => {
      onAdded(r);
      setText('');
      toast.success(REPORT_MESSAGES.addendumAdded);
    },
    onError: (err) => toast.error(errorText(err, 'Could not add the addendum')),
  });
  return (
    <div className="report-addenda">
      {report.addenda.length ? (
        <ol className="report-addenda-list" aria-label="Addenda">
          {report.addenda.map((a) => (
            <li key={a.signedAt}>
              <p className="report-addendum-text">{a.text}</p>
              <p className="muted">{signedText(a.signedBy, a.signedAt)}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {report.canSign ? (
        <form
          className="report-addendum-form"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate({ analysisId: report.analysisId, revision: report.revision, text });
          }}
        >
          <label className="report-section">
            <span className="report-section-label">Addendum</span>
            <textarea
              className="input report-textarea"
              rows={2}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <button type="submit" className="button button-secondary" disabled={add.isPending || text.trim() === ''}>
            Sign addendum
          </button>
        </form>
      ) : null}
    </div>
  );
}
