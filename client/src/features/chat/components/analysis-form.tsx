import { useState, type FormEvent, type ReactNode } from 'react';
import { useToast } from '../../../components/toast/use-toast';
import {
  defaultRows,
  rowsFromProfile,
  validatePatientForm,
  type TFieldRow,
  type TPatientInfo,
  type TProfileLike,
} from '../lib/patient-fields';
import { ImageUpload, type TPickedImage } from './image-upload';
import { PatientFields } from './patient-fields';
import './analysis-form.css';

/**
 * 'Start Your Analysis': the X-ray, the patient rows and the submit button. It keeps its values
 * when a submission fails (so the clinician can retry); the parent remounts it after a success.
 */
export function AnalysisForm({
  profile,
  busy,
  onSubmit,
  children,
}: {
  profile: TProfileLike | null;
  busy: boolean;
  onSubmit: (file: File, patient: TPatientInfo) => void;
  /** Shown above the submit button: the live progress while the worker runs. */
  children?: ReactNode;
}) {
  const toast = useToast();
  const [image, setImage] = useState<TPickedImage | null>(null);
  const [rows, setRows] = useState<TFieldRow[]>(() => (profile ? rowsFromProfile(profile) : defaultRows()));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const checked = validatePatientForm(image !== null, rows);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    if (image) onSubmit(image.file, checked.patient);
  };

  return (
    <form className="chat-form" onSubmit={submit} noValidate aria-labelledby="chat-form-title" aria-busy={busy}>
      <header className="chat-form-header">
        <h1 id="chat-form-title">Start Your Analysis</h1>
        <p className="muted small chat-hint">
          Upload a chest X-ray and check the patient information, then submit it for analysis.
        </p>
      </header>
      <div className="chat-form-grid">
        <ImageUpload value={image} onChange={setImage} disabled={busy} />
        <PatientFields rows={rows} onChange={setRows} profileName={profile?.patientName ?? null} disabled={busy} />
      </div>
      {children}
      <button type="submit" className="button button-primary chat-submit" disabled={busy}>
        {busy ? 'Analyzing...' : 'Submit Analysis'}
      </button>
    </form>
  );
}
