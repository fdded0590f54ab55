import { useAnalysisSubmission } from '../hooks/use-analysis-submission';
import type { TProfileLike } from '../lib/patient-fields';
import { AnalysisForm } from './analysis-form';
import { AnalysisProgress } from './analysis-progress';
import './new-analysis.css';

/** The form for a new analysis, with the worker's live progress under it while it runs. */
export function NewAnalysis({ profile }: { profile: TProfileLike | null }) {
  const { state, submit, busy } = useAnalysisSubmission();
  return (
    <div className="chat-home chat-home-form">
      <AnalysisForm
        profile={profile}
        busy={busy}
        onSubmit={(file, patient) => submit(file, patient, profile?.id ?? null)}
      >
        {state.phase === 'uploading' ? <AnalysisProgress stage="uploading" /> : null}
        {state.phase === 'running' ? <AnalysisProgress stage={state.stage} /> : null}
      </AnalysisForm>
    </div>
  );
}
