import { useEffect, useRef, useState } from 'react';
import { CheckIcon, CloseIcon, PencilIcon, TrashIcon } from '../../../components/icons';
import { CHAT_TITLE_MAX, type TChatSummary } from '@contracts/schemas/history';
import { openChat } from '../../../lib/current-chat';
import { HistoryRow } from './history-row';

interface TItemProps {
  chat: TChatSummary;
  active: boolean;
  /** Resolves when saved; rejects (after its own toast) to keep the editor open. */
  onRename: (title: string) => Promise<void>;
  onDelete: () => void;
}

export function ChatHistoryItem({ chat, active, onRename, onDelete }: TItemProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(chat.title);
  const [saving, setSaving] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  // The editor replaces the Rename button the user just pressed: focus moves into it.
  useEffect(() => {
    if (editing) titleInput.current?.focus();
  }, [editing]);

  const cancel = () => {
    setEditing(false);
    setDraft(chat.title);
  };
  const save = () => {
    const title = draft.trim();
    // Section 5: a title that is empty after trimming cancels the edit; an unchanged one too.
    if (title === '' || title === chat.title) return cancel();
    setSaving(true);
    onRename(title).then(
      () => {
        setSaving(false);
        setEditing(false);
      },
      () => setSaving(false),
    );
  };

  if (editing) {
    return (
      <li className="history-item editing">
        <input
          className="input input-small"
          aria-label="Chat title"
          ref={titleInput}
          value={draft}
          disabled={saving}
          maxLength={CHAT_TITLE_MAX}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              cancel();
            }
          }}
        />
        <button type="button" className="icon-button" aria-label="Save title" disabled={saving} onClick={save}>
          <CheckIcon />
        </button>
        <button type="button" className="icon-button" aria-label="Cancel editing" disabled={saving} onClick={cancel}>
          <CloseIcon />
        </button>
      </li>
    );
  }

  return (
    <HistoryRow title={chat.title} patientName={chat.patientName} active={active} onOpen={() => openChat(chat.id)}>
      <button
        type="button"
        className="icon-button"
        aria-label={`Rename chat ${chat.title}`}
        onClick={() => {
          setDraft(chat.title);
          setEditing(true);
        }}
      >
        <PencilIcon />
      </button>
      <button type="button" className="icon-button" aria-label={`Delete chat ${chat.title}`} onClick={onDelete}>
        <TrashIcon />
      </button>
    </HistoryRow>
  );
}
