import { CloseIcon } from '../../../components/icons';
import { closeChat, startNewChat } from '../../../lib/current-chat';
import { clearLocalChat, type TLocalChat } from '../../../lib/local-chat';
import { HistoryRow } from './history-row';

/** The local chat (no messages yet): opens its form again; Discard drops it. */
export function LocalChatItem({ chat, active }: { chat: TLocalChat; active: boolean }) {
  return (
    <HistoryRow
      title={chat.title}
      patientName={chat.patientName}
      active={active}
      className="history-item-local"
      onOpen={() => startNewChat(chat.profile)}
    >
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
    </HistoryRow>
  );
}
