import { useMemo, useState } from 'react';
import type { THistoryGetOutput } from '@contracts/schemas/history';
import type { TStoredResult } from '@contracts/schemas/analysis';
import { useAutoScroll } from '../hooks/use-auto-scroll';
import { useFollowUp } from '../hooks/use-follow-up';
import { useLiveAnalysis } from '../hooks/use-live-analysis';
import { introMessageText } from '../lib/intro-message';
import { AnalysisProgress } from './analysis-progress';
import { ChatToolbar } from './chat-toolbar';
import { ExportButtons } from './export-buttons';
import { FindingsBars } from './findings-bars';
import { FollowUpInput } from './follow-up-input';
import { HeartSize } from './heart-size';
import { MarkdownContent } from './markdown-content';
import { MessageItem, type TDisplayMessage } from './message-item';
import { XrayViewer, type TViewerHeatmap } from './xray-viewer';
import { useCurrentSpace } from '../../../lib/current-space';
import { ReportPanel } from '../../report/components/report-panel';
import { ReadingBar } from '../../worklist/components/reading-bar';
import '../../../components/spinner.css';
import './chat-view.css';

/** A chat with messages: the thread and follow-up box beside the X-ray viewer and the findings. */
export function ChatView({ detail }: { detail: THistoryGetOutput }) {
  const { chat } = detail;
  const live = useLiveAnalysis(chat.id, chat.latestAnalysis);
  const followUp = useFollowUp(chat.id);
  const space = useCurrentSpace();
  const [viewerSrc, setViewerSrc] = useState<string | null>(null);

  const messages = useMemo<TDisplayMessage[]>(() => {
    const intro: TDisplayMessage = {
      id: 'intro',
      role: 'user',
      content: introMessageText({
        patientName: chat.patientName,
        patientAge: chat.patientAge,
        medicalHistory: chat.medicalHistory,
      }),
      imageUrl: null,
      createdAt: null,
    };
    const stored = detail.messages
      .filter((m): m is typeof m & { role: 'user' | 'assistant' } => m.role !== 'system')
      .map((m) => ({ ...m, imageKind: m.role === 'assistant' ? ('heatmap' as const) : ('xray' as const) }));
    return [intro, ...stored];
  }, [detail.messages, chat.patientName, chat.patientAge, chat.medicalHistory]);

  const all = [...messages, ...followUp.pending];
  // A film with its report to read: the film and the report side by side, the thread after (issue 49 item 5).
  const reading = live.status === 'completed' && live.view !== null && live.view.result?.gate.accepted === true;
  // Once the reader asks something here, the thread is followed from then on (the reply included).
  const [asked, setAsked] = useState(false);
  if (!asked && (followUp.pending.length > 0 || followUp.reply !== null)) setAsked(true);
  // Whether it is a reading is known once the analysis is loaded: no scroll before, or it would run first.
  const known = live.view !== null || chat.latestAnalysis === null;
  const endRef = useAutoScroll<HTMLDivElement>(
    [all.length, followUp.reply?.text, live.stage],
    asked || (known && !reading),
  );

  const xray =
    live.view?.imageUrl ??
    chat.imageUrl ??
    detail.messages.find((m) => m.role === 'user' && m.imageUrl)?.imageUrl ??
    null;
  const heatmap =
    live.view?.heatmapUrl ?? detail.messages.find((m) => m.role === 'assistant' && m.imageUrl)?.imageUrl ?? null;
  const shownSrc = viewerSrc ?? xray;
  const result = live.view?.result ?? null;
  const canFollowUp = live.status === 'completed' || detail.messages.some((m) => m.role === 'assistant');
  const disabledReason = live.running
    ? 'Follow-up questions open once the analysis has finished.'
    : canFollowUp
      ? null
      : 'This chat has no analysis to discuss yet.';

  return (
    <div className="chat-view">
      <ChatToolbar chatId={chat.id} title={chat.title}>
        {live.status === 'completed' ? <ExportButtons chatId={chat.id} /> : null}
      </ChatToolbar>
      <div className={`chat-view-body${reading ? ' is-reading' : ''}`}>
        <aside className="chat-aside" aria-label="X-ray and findings">
          {shownSrc ? (
            <XrayViewer
              key={shownSrc}
              src={shownSrc}
              overlaySrc={shownSrc === xray ? heatmap : null}
              heatmaps={shownSrc === xray ? viewerHeatmaps(result) : []}
              anatomy={shownSrc === xray ? result?.anatomy : null}
              imageSize={result?.image ?? null}
              alt={`Chest X-ray of ${chat.patientName}`}
            />
          ) : null}
          {viewerSrc && viewerSrc !== xray ? (
            <button type="button" className="button button-link" onClick={() => setViewerSrc(null)}>
              Back to the X-ray
            </button>
          ) : null}
          {/* Reading: Claim and Release under the film, so the report starts at the top of its column. */}
          {reading && live.view && space ? (
            <ReadingBar key={`reading-${live.view.id}`} analysisId={live.view.id} team={space.teamId} />
          ) : null}
          {result ? (
            <FindingsBars
              findings={result.findings}
              notAssessed={result.notAssessed}
              withdrawn={result.withdrawn}
              modelVersion={result.modelVersion}
              chatId={chat.id}
            />
          ) : null}
          {result?.anatomy && result.gate.accepted ? (
            <HeartSize
              anatomy={result.anatomy}
              projection={result.projection}
              findings={result.findings}
              patientAge={chat.patientAge}
            />
          ) : null}
          {live.view && space && !reading ? (
            <ReadingBar key={`reading-${live.view.id}`} analysisId={live.view.id} team={space.teamId} />
          ) : null}
        </aside>
        {reading && live.view ? (
          <div className="chat-reading">
            <ReportPanel key={live.view.id} analysisId={live.view.id} team={space?.teamId ?? null} />
          </div>
        ) : null}
        <section className="chat-thread" aria-label="Conversation">
          <ol className="chat-messages" aria-live="polite" aria-relevant="additions">
            {all.map((m) => (
              <MessageItem key={m.id} message={m} onShowImage={setViewerSrc} />
            ))}
            {followUp.reply ? (
              <li className="chat-msg is-assistant" data-role="assistant" data-streaming="true">
                {followUp.reply.text === '' ? (
                  <p className="chat-thinking" role="status">
                    <span className="spinner spinner-small" aria-hidden="true" /> Thinking...
                  </p>
                ) : (
                  <MarkdownContent text={followUp.reply.text} />
                )}
              </li>
            ) : null}
          </ol>
          {live.running ? <AnalysisProgress stage={live.stage} /> : null}
          <div ref={endRef} />
          <FollowUpInput busy={followUp.busy} disabledReason={disabledReason} onSend={followUp.send} />
        </section>
      </div>
    </div>
  );
}

/** The result's kept heatmaps (one per flagged finding) with their findings' names, for the viewer's selector. */
function viewerHeatmaps(result: TStoredResult | null): TViewerHeatmap[] {
  if (!result) return [];
  return result.heatmaps.flatMap((h) => {
    const finding = result.findings.find((f) => f.label === h.label);
    return h.grid && finding ? [{ label: h.label, display: finding.display, grid: h.grid }] : [];
  });
}
