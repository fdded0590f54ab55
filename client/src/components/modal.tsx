import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import './modal.css';

interface TModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** While true, Escape and the backdrop do nothing (a request is in flight). */
  locked?: boolean;
  className?: string;
  /** Where focus goes on opening (a form's first field); by default the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser traps focus and makes the page behind inert.
 * Focus goes back to the control that opened it when it closes: callers close a modal by
 * unmounting it (or rendering it with open=false, which renders nothing), and a <dialog> removed
 * from the page without close() leaves focus on <body>, so the opener is remembered here.
 */
export function Modal({ open, title, onClose, locked = false, className, initialFocus, children }: TModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    // Taken before showModal() moves focus into the dialog.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // After the closing render: the opener may have been re-rendered but is the same node.
      // A control that left the page (a deleted item's button) cannot take focus back.
      if (opener?.isConnected) opener.focus();
    };
  }, [open, initialFocus]);
  // A click on the backdrop (the <dialog> itself, outside its body) closes it: a pointer
  // shortcut whose keyboard equivalents are Escape (the cancel event below) and the Close button.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const onBackdrop = (e: MouseEvent) => {
      if (e.target === dialog && !locked) onClose();
    };
    dialog.addEventListener('click', onBackdrop);
    return () => dialog.removeEventListener('click', onBackdrop);
  }, [open, locked, onClose]);
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
