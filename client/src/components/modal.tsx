import { useEffect, useId, useRef, type ReactNode } from 'react';

interface TModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** While true, Escape and the backdrop do nothing (a request is in flight). */
  locked?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser traps focus, makes the page behind inert and
 * returns focus to the opener on close, which hand-made overlays tend to get wrong.
 */
export function Modal({ open, title, onClose, locked = false, className, children }: TModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        // Escape: the browser would close it by itself; React state decides instead.
        e.preventDefault();
        if (!locked) onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current && !locked) onClose();
      }}
    >
      <div className="modal-body">
        <div className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={locked}>
            ×
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
