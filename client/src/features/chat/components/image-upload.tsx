import { useId, type ChangeEvent } from 'react';
import { ACCEPTED_IMAGE_INPUT, checkImageFile, IMAGE_HINT, IMAGE_MESSAGES, isDicomFile } from '../lib/image-file';
import { useToast } from '../../../components/toast/use-toast';
import './image-upload.css';

export interface TPickedImage {
  file: File;
  /** data: URL of the file for the preview (the CSP allows data: images). */
  preview: string;
}

/** X-ray picker: click (or Enter/Space) to upload, a preview, and a remove button. */
export function ImageUpload({
  value,
  onChange,
  disabled,
}: {
  value: TPickedImage | null;
  onChange: (image: TPickedImage | null) => void;
  disabled?: boolean;
}) {
  const toast = useToast();
  const inputId = useId();
  const hintId = useId();

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Reset so that picking the same file again after a removal fires change again.
    e.target.value = '';
    if (!file) return;
    const refusal = checkImageFile(file);
    if (refusal) {
      toast.error(refusal);
      return;
    }
    if (isDicomFile(file)) {
      // A browser cannot draw DICOM; the server decodes it (window, MONOCHROME1) for the analysis.
      onChange({ file, preview: '' });
      toast.success(IMAGE_MESSAGES.uploaded);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result !== 'string') {
        toast.error(IMAGE_MESSAGES.readFailed);
        return;
      }
      onChange({ file, preview: reader.result });
      toast.success(IMAGE_MESSAGES.uploaded);
    };
    reader.onerror = () => toast.error(IMAGE_MESSAGES.readFailed);
    reader.readAsDataURL(file);
  };

  return (
    <section className="chat-upload" aria-label="X-ray image">
      <h2 className="chat-section-title">X-Ray Image</h2>
      {value ? (
        <div className="chat-upload-preview">
          {value.preview ? (
            <img src={value.preview} alt="Selected X-ray preview" />
          ) : (
            <div className="chat-upload-dicom">DICOM file: shown after analysis</div>
          )}
          <div className="chat-upload-meta">
            <span className="chat-upload-name">{value.file.name}</span>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => onChange(null)}
              disabled={disabled}
            >
              Remove image
            </button>
          </div>
        </div>
      ) : (
        // The input lives only beside its label: with a film picked it would be a control without
        // a name (and nothing to do until Remove image).
        <>
          <label htmlFor={inputId} className={`chat-upload-drop${disabled ? ' is-disabled' : ''}`}>
            <span className="chat-upload-icon" aria-hidden="true">
              ⬆
            </span>
            <span className="chat-upload-cta">Click to upload X-ray</span>
            <span id={hintId} className="muted small chat-hint">
              {IMAGE_HINT}
            </span>
          </label>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            accept={ACCEPTED_IMAGE_INPUT}
            aria-describedby={hintId}
            onChange={onPick}
            disabled={disabled}
          />
        </>
      )}
    </section>
  );
}
