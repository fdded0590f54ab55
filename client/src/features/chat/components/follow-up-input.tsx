import { useId, useState, type FormEvent } from 'react';
import { QUERY_MAX } from '@contracts/schemas/chat';
import './follow-up-input.css';

export const FOLLOW_UP_PLACEHOLDER = 'Ask a follow-up question about the X-ray analysis...';

/** The follow-up box: Send is disabled while empty (after trimming) or while busy. */
export function FollowUpInput({
  busy,
  disabledReason,
  onSend,
}: {
  busy: boolean;
  disabledReason: string | null;
  onSend: (q: string) => void;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const blocked = busy || disabledReason !== null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (!q || blocked) return;
    onSend(q);
    setText('');
  };
  return (
    <form className="chat-followup" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Follow-up question
      </label>
      <textarea
        id={id}
        className="input chat-followup-input"
        rows={1}
        placeholder={FOLLOW_UP_PLACEHOLDER}
        value={text}
        maxLength={QUERY_MAX}
        disabled={disabledReason !== null}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // Enter sends, Shift+Enter starts a new line (IME composition is left alone).
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <button type="submit" className="button button-primary" disabled={blocked || text.trim() === ''}>
        Send
      </button>
      {disabledReason ? <p className="muted small chat-followup-note">{disabledReason}</p> : null}
    </form>
  );
}
