import { likelyFrom, type TFindingCall } from '@contracts/finding-call';
import { shortPct, wordAfterFigure } from '@contracts/finding-story';
import { findingValueText, PANEL_CALL_TEXT, withdrawnText } from '@contracts/finding-text';
import { NOT_ASSESSED_REASON, type TNotAssessed, type TWithdrawn } from '@contracts/schemas/analysis';
import { FindingFeedback, useFindingFeedback } from './finding-feedback';
import './findings-bars.css';

export interface TFindingView {
  label: string;
  display: string;
  probability: number;
  threshold: number;
  call: TFindingCall;
  /** Set when a site threshold decided the call (issue 17). */
  modelThreshold?: number | undefined;
  /** Issue 48: where a flag reads "Likely" (absent on older results: 50 %). */
  likelyThreshold?: number | undefined;
}

const CALL_TEXT = PANEL_CALL_TEXT;
const pct = shortPct;

interface TFindingsBarsProps {
  findings: readonly TFindingView[];
  /** Candidates this model version does not assess (model 2+): listed by name, without a bar. */
  notAssessed?: readonly TNotAssessed[] | undefined;
  /** Outputs withdrawn from the findings (model 4): one note each, with the external figure. */
  withdrawn?: readonly TWithdrawn[] | undefined;
  modelVersion?: string | null;
  /** When given, each finding gets the clinician feedback control (issue 17). */
  chatId?: string | undefined;
}

/** The model's findings, highest probability first, as bars with the decision threshold marked. */
export function FindingsBars({ findings, notAssessed = [], withdrawn = [], modelVersion, chatId }: TFindingsBarsProps) {
  const feedback = useFindingFeedback(chatId);
  const sorted = [...findings].sort((a, b) => b.probability - a.probability);
  return (
    <section className="chat-findings" aria-labelledby="chat-findings-title">
      <h2 id="chat-findings-title" className="chat-section-title">
        Findings
      </h2>
      {sorted.length === 0 ? <p className="muted small chat-hint">No findings reported.</p> : null}
      <ul className="chat-findings-list">
        {sorted.map((f) => (
          <li key={f.label} className={`chat-finding is-${f.call}`} data-label={f.label}>
            <div className="chat-finding-head">
              <span className="chat-finding-name">{f.display}</span>
              <span className="chat-finding-value">
                {f.call === 'possible' ? (
                  <span className="chat-finding-call">{findingValueText(f)}</span>
                ) : (
                  <>
                    {pct(f.probability)} <span className="chat-finding-call">{wordAfterFigure(f.call)}</span>
                  </>
                )}
              </span>
            </div>
            <div
              className="chat-finding-bar"
              role="meter"
              aria-label={`${f.display} probability`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(f.probability * 100)}
              aria-valuetext={`${pct(f.probability)}, ${CALL_TEXT[f.call].toLowerCase()}`}
            >
              <span className="chat-finding-fill" style={{ width: pct(f.probability) }} />
              <span
                className="chat-finding-threshold"
                style={{ left: pct(f.threshold) }}
                title={`Possible from ${pct(f.threshold)}`}
              />
              <span
                className="chat-finding-threshold is-likely"
                style={{ left: pct(likelyFrom(f.likelyThreshold)) }}
                title={`Likely from ${pct(likelyFrom(f.likelyThreshold))}`}
              />
            </div>
            <p className="muted small chat-hint" data-testid="finding-points">
              Possible from {pct(f.threshold)} · Likely from {pct(Math.max(f.threshold, likelyFrom(f.likelyThreshold)))}
            </p>
            {f.modelThreshold !== undefined ? (
              <p className="muted small chat-hint">
                Site threshold {f.threshold.toFixed(2)}, model default {f.modelThreshold.toFixed(2)}
              </p>
            ) : null}
            {chatId ? (
              <FindingFeedback
                chatId={chatId}
                finding={f.label}
                display={f.display}
                call={f.call}
                entry={feedback.get(f.label)}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {notAssessed.length > 0 ? (
        <div className="chat-not-assessed" data-testid="not-assessed">
          <h3 className="chat-subsection-title">Not assessed</h3>
          <ul className="chat-not-assessed-list">
            {notAssessed.map((n) => (
              <li key={n.label} data-label={n.label}>
                {n.display}
                {n.reason ? <span className="muted small"> ({n.reason})</span> : null}
              </li>
            ))}
          </ul>
          {notAssessed.some((n) => !n.reason) ? (
            <p className="muted small chat-hint">No probability is shown: {NOT_ASSESSED_REASON}.</p>
          ) : (
            <p className="muted small chat-hint">No probability is shown.</p>
          )}
        </div>
      ) : null}
      {withdrawn.length > 0 ? (
        <ul className="chat-withdrawn muted small" data-testid="withdrawn">
          {withdrawn.map((w) => (
            <li key={w.label} data-label={w.label}>
              {withdrawnText(w)}
            </li>
          ))}
        </ul>
      ) : null}
      {modelVersion ? (
        <p className="muted small chat-hint">
          Model {modelVersion} (
          <a href="/model-card" target="_blank" rel="noreferrer">
            model card<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          ). Assistive output only: not a substitute for professional judgement.
        </p>
      ) : null}
    </section>
  );
}
