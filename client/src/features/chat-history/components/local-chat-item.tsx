import { CloseIcon } from '../../../components/icons';
import { closeChat, startNewChat } from '../current-chat';
import { clearLocalChat, type TLocalChat } from '../local-chat';
import { truncateTitle } from './chat-history-item';

/** The local chat (no messages yet): opens its form again; Discard drops it. */
export function LocalChatItem({ chat, active }: { chat: TLocalChat; active: boolean }) {
  return (
    <li className={`history-item history-item-local ${active ? 'active' : ''}`}>
      <button
        type="button"
        className="history-open"
        aria-current={active ? 'true' : undefined}
        title={chat.title}
        onClick={() => startNewChat(chat.profile)}
      >
        <span className="history-title">{truncateTitle(chat.title)}</span>
        <span className="history-patient">{chat.patientName}</span>
      </button>
      <div className="history-item-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Discard chat ${chat.title}`}
          onClick={() => {
            clearLocalChat();
            if (active) closeChat();
          }}
        >
          <CloseIcon />
        </button>
      </div>
    </li>
  );
}
