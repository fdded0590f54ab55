import { useId, useState } from 'react';
import { Modal } from './modal';
import { PasswordInput } from './password-input';

export type TConfirmType = 'danger' | 'warning' | 'info';

interface TConfirmDialogProps {
  open: boolean;
  type?: TConfirmType;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Ask for the account password; confirm stays disabled until it is non-blank. */
  requirePassword?: boolean;
  passwordLabel?: string;
  /** True while the confirmed action runs: the dialog shows 'Processing...' and cannot close. */
  processing?: boolean;
  /** An error to show inside the dialog (e.g. 'Incorrect password'). */
  error?: string | null;
  onConfirm: (password: string) => void;
  onClose: () => void;
}

/** The reusable confirmation dialog (section 2): danger, warning or info. */
export function ConfirmDialog(props: TConfirmDialogProps) {
  const { open, type = 'danger', title, message, confirmLabel = 'Confirm', cancelLabel = 'Cancel' } = props;
  const { requirePassword = false, passwordLabel = 'Password', processing = false, error, onConfirm, onClose } = props;
  const [password, setPassword] = useState('');
  const passwordId = useId();
  const close = () => {
    if (processing) return;
    setPassword('');
    onClose();
  };
  const blocked = processing || (requirePassword && password.trim() === '');
  return (
    <Modal open={open} title={title} onClose={close} locked={processing} className={`confirm-dialog confirm-${type}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) onConfirm(password);
        }}
      >
        <div className="confirm-icon" aria-hidden="true">
          {type === 'info' ? 'i' : '!'}
        </div>
        <p className="confirm-message">{message}</p>
        {requirePassword ? (
          <div className="field">
            <label htmlFor={passwordId} className="field-label">
              {passwordLabel}
            </label>
            <PasswordInput
              id={passwordId}
              value={password}
              autoComplete="current-password"
              disabled={processing}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={close} disabled={processing}>
            {cancelLabel}
          </button>
          <button type="submit" className={`button button-${type}`} disabled={blocked}>
            {processing ? 'Processing...' : confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
