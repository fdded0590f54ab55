import { API_KEY_MESSAGES } from '@contracts/schemas/api-key';
import { Field } from './field';
import { useToast } from './toast/use-toast';
import './key-shown-once.css';

/**
 * An API key just created (personal, or a team's): shown once, read-only with a copy button,
 * until the user dismisses it. The server keeps only its hash, so it cannot be shown again.
 * `valueClassName` marks the field for a page's own styling and its tests.
 */
export function KeyShownOnce({
  id,
  label,
  value,
  valueClassName,
  onDone,
}: {
  id: string;
  label: string;
  value: string;
  valueClassName?: string;
  onDone: () => void;
}) {
  const toast = useToast();
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => toast.success('API key copied'),
      () => toast.error('Could not copy; select the key and copy it by hand'),
    );
  return (
    <div className="card key-shown-once" role="status">
      <p>
        <strong>{API_KEY_MESSAGES.created}</strong>
      </p>
      <Field id={id} label={label}>
        <input
          id={id}
          className={valueClassName ? `input ${valueClassName}` : 'input'}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
        />
      </Field>
      <div className="key-shown-once-actions">
        <button type="button" className="button button-primary" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
