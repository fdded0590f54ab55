import type { TAnalysisStage } from '@contracts/analysis-stage.js';
import { PROGRESS_STEPS, stepIndex } from '../lib/analysis-stages';
import '../../../components/spinner.css';
import './analysis-progress.css';

/** The worker's stages as a checklist; the live region announces each change. */
export function AnalysisProgress({ stage }: { stage: TAnalysisStage | 'uploading' }) {
  const current = stage === 'uploading' ? -1 : stepIndex(stage);
  const currentLabel = stage === 'uploading' ? 'Uploading image' : (PROGRESS_STEPS[current]?.label ?? stage);
  return (
    <section className="chat-progress" aria-label="Analysis progress">
      <p className="chat-progress-now" role="status" aria-live="polite">
        <span className="spinner spinner-small" aria-hidden="true" /> {currentLabel}...
      </p>
      <ol className="chat-progress-steps">
        {PROGRESS_STEPS.map((s, i) => {
          const state = i < current || stage === 'done' ? 'done' : i === current ? 'active' : 'pending';
          return (
            <li
              key={s.stage}
              className={`chat-progress-step is-${state}`}
              data-stage={s.stage}
              aria-current={state === 'active' ? 'step' : undefined}
            >
              <span className="chat-progress-dot" aria-hidden="true">
                {state === 'done' ? '✓' : i + 1}
              </span>
              {s.label}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
