import { useEffect, useRef, useState } from 'react';
import { REPORT_MESSAGES, type TReport, type TReportSections } from '@contracts/schemas/report';
import { useToast } from '../../../components/toast/use-toast';
import { errorInfo, errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { useHoldClaim } from '../hooks/use-hold-claim';
import { useOpenNext } from '../hooks/use-open-next';
import { shortcutOf, useReadingShortcuts } from '../hooks/use-reading-shortcuts';
import { signedText } from '../lib/signed-text';
import { AddendaList } from './addenda-list';
import { ReadingShortcuts } from './reading-shortcuts';
import { ReportConflict } from './report-conflict';
import { ReportDeliveries } from './report-deliveries';
import { ReportSectionsForm, ReportSectionsView } from './report-sections';
import './report-panel.css';

const STATUS_TEXT: Record<TReport['status'], string> = { draft: 'Draft', final: 'Final', amended: 'Amended' };

/**
 * The radiology report beside the film (issue 41): the AI's draft, which a reader edits and signs
 * ("Sign and next" opens the next study to read); signed, it is read-only with its signer and its
 * signed addenda. A clinician reads it. The server decides who may (`canSign`). Every save and
 * signature names the revision it was read at (issue 49): refused because another reader changed
 * the report (or holds the study), the editor keeps the reader's text and says why.
 */
export function ReportPanel({ analysisId, team }: { analysisId: string; team: string | null }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const report = trpc.report.get.useQuery({ analysisId });
  const [draft, setDraft] = useState<TReportSections | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [kept, setKept] = useState<TReportSections | null>(null);
  const signedRef = useRef<HTMLParagraphElement>(null);
  const { openNext, pending: opening } = useOpenNext(team);
  const data = report.data;
  useEffect(() => {
    if (data?.status === 'draft') setDraft((d) => d ?? data.sections);
  }, [data]);
  // After signing, focus goes to the signature line once it is rendered (a frame is not always enough).
  const [focusSigned, setFocusSigned] = useState(false);
  useEffect(() => {
    if (!focusSigned || !signedRef.current) return;
    signedRef.current.focus();
    setFocusSigned(false);
  }, [focusSigned, data]);

  // Opened, the report has focus (issue 49 item 5): the Impression of a draft the reader signs,
  // else the panel; never taken from a control the reader is already in.
  const panelRef = useRef<HTMLElement>(null);
  const focusedOnOpen = useRef(false);
  useEffect(() => {
    if (!data || focusedOnOpen.current) return;
    focusedOnOpen.current = true;
    if (document.activeElement && document.activeElement !== document.body) return;
    const first = data.status === 'draft' && data.canSign ? document.getElementById('report-impression') : null;
    (first ?? panelRef.current)?.focus({ preventScroll: true });
  }, [data]);

  const edit = trpc.report.edit.useMutation();
  const sign = trpc.report.sign.useMutation();
  const holdClaim = useHoldClaim(analysisId, team);
  const store = (r: TReport) => utils.report.get.setData({ analysisId }, r);
  const changed = Boolean(draft && data && JSON.stringify(draft) !== JSON.stringify(data.sections));
  /** The draft saved at the revision read; the stored report after it (the same one when unchanged). */
  const save = async (): Promise<TReport | undefined> => {
    if (!draft || !data) return data;
    await holdClaim();
    const saved = await edit.mutateAsync({ analysisId, revision: data.revision, sections: draft });
    store(saved);
    setConflict(null);
    return saved;
  };
  // A 409 stays on screen beside the reader's text (nothing is refetched over it); anything else is a toast.
  const refused = (err: unknown, fallback: string) => {
    const info = errorInfo(err);
    if (info.code === 'CONFLICT' || info.status === 409) setConflict(errorText(err, fallback));
    else toast.error(errorText(err, fallback));
  };
  const reload = () => {
    if (changed) setKept(draft);
    setDraft(null);
    setConflict(null);
    void report.refetch();
  };
  const signNow = async (thenNext: boolean) => {
    try {
      const current = changed ? await save() : data;
      if (!current) return;
      await holdClaim();
      store(await sign.mutateAsync({ analysisId, revision: current.revision }));
      setConflict(null);
      toast.success(REPORT_MESSAGES.signedOk);
      void refreshQuery(utils.worklist.list);
      if (thenNext) openNext();
      // The next control after signing: the signature line, then the addendum box.
      else setFocusSigned(true);
    } catch (err) {
      refused(err, 'Could not sign the report');
    }
  };
  const saveOnly = () =>
    save().then(
      () => toast.success(REPORT_MESSAGES.saved),
      (err: unknown) => refused(err, 'Could not save the report'),
    );

  const busy = edit.isPending || sign.isPending || opening;
  const reads = data?.canSign === true;
  const drafting = reads && data?.status === 'draft';
  const idle = (run: () => void) => () => {
    if (!busy) run();
  };
  useReadingShortcuts({
    sign: drafting ? idle(() => void signNow(false)) : undefined,
    signAndNext: drafting ? idle(() => void signNow(true)) : undefined,
    next: reads && !drafting ? idle(openNext) : undefined,
  });

  if (report.isPending) return <p className="muted">Loading the report...</p>;
  if (report.isError || !data) return null;
  return (
    <section
      className="report-panel"
      aria-labelledby="report-heading"
      data-testid="report-panel"
      ref={panelRef}
      tabIndex={-1}
    >
      <header className="report-header">
        <h2 id="report-heading">Report</h2>
        <span className={`report-status report-status-${data.status}`}>{STATUS_TEXT[data.status]}</span>
      </header>
      <ReportConflict message={conflict} kept={kept} onReload={conflict ? reload : null} />
      {data.status === 'draft' ? (
        <>
          <p className="muted report-drafted">Drafted by {data.draftedBy}: check every section before signing.</p>
          <ReportSectionsForm sections={draft ?? data.sections} onChange={setDraft} readOnly={!data.canSign} />
          {data.canSign ? (
            <>
              <div className="report-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy}
                  onClick={() => void saveOnly()}
                >
                  Save draft
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy}
                  aria-keyshortcuts={shortcutOf('sign').aria}
                  onClick={() => void signNow(false)}
                >
                  Sign
                </button>
                <button
                  type="button"
                  className="button button-primary"
                  disabled={busy}
                  aria-keyshortcuts={shortcutOf('signAndNext').aria}
                  onClick={() => void signNow(true)}
                >
                  Sign and next
                </button>
              </div>
              <ReadingShortcuts offered={['sign', 'signAndNext']} />
            </>
          ) : (
            <p className="muted">Only a radiologist or an admin of the team signs the report.</p>
          )}
        </>
      ) : (
        <>
          <p className="report-signed" ref={signedRef} tabIndex={-1} data-testid="report-signed">
            {signedText(data.signedBy, data.signedAt)}
          </p>
          <ReportSectionsView sections={data.sections} />
          <AddendaList report={data} onAdded={store} />
          <ReportDeliveries analysisId={analysisId} />
          {data.canSign ? (
            <>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                aria-keyshortcuts={shortcutOf('next').aria}
                onClick={openNext}
              >
                Next study
              </button>
              <ReadingShortcuts offered={['next']} />
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
