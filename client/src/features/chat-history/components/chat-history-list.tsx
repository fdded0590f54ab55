import { useState } from 'react';
import type { TChatSummary } from '@contracts/schemas/history';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toast/use-toast';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';
import { closeChat, useCurrentChatId, useIsNewChat } from '../../../lib/current-chat';
import { useLocalChat } from '../../../lib/local-chat';
import { useSpaceTeam } from '../../../lib/current-space';
import { ChatHistoryItem } from './chat-history-item';
import { LocalChatItem } from './local-chat-item';
import './chat-history-list.css';

/** The sidebar's Chat History (section 2), newest first, with rename and delete. */
export function ChatHistoryList() {
  const currentId = useCurrentChatId();
  const isNew = useIsNewChat();
  const localChat = useLocalChat();
  const toast = useToast();
  const utils = trpc.useUtils();
  const team = useSpaceTeam();
  const list = trpc.history.list.useInfiniteQuery(
    { limit: 30, team },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const rename = trpc.history.editTitle.useMutation();
  const remove = trpc.history.delete.useMutation();
  const [deleting, setDeleting] = useState<TChatSummary | null>(null);
  const chats = list.data?.pages.flatMap((p) => p.items) ?? [];

  const saveTitle = (chat: TChatSummary, title: string) =>
    rename.mutateAsync({ chatId: chat.id, title }).then(
      () => {
        toast.success('Chat title updated');
        void refreshQuery(utils.history.list);
        void refreshQuery(utils.history.get, { chatId: chat.id });
      },
      (err: unknown) => {
        toast.error(errorText(err, 'Failed to update chat title', { NOT_FOUND: 'Failed to update chat title' }));
        throw err;
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    const chatId = deleting.id;
    remove.mutate(
      { chatId },
      {
        onSuccess: () => {
          toast.success('Chat deleted successfully');
          setDeleting(null);
          // Section 4: deleting the current chat clears the selection.
          if (chatId === currentId) closeChat();
          void refreshQuery(utils.history.list);
        },
        onError: (err) => {
          toast.error(errorText(err, 'Failed to delete chat', { NOT_FOUND: 'Failed to delete chat' }));
          setDeleting(null);
        },
      },
    );
  };

  return (
    <section className="history" aria-labelledby="history-heading">
      <h2 id="history-heading" className="history-heading">
        Chat History
      </h2>
      {list.isPending ? (
        <p className="muted history-note" role="status">
          Loading chats...
        </p>
      ) : list.isError ? (
        <p className="field-error history-note">Could not load chats.</p>
      ) : chats.length === 0 && !localChat ? (
        <div className="history-empty">
          <p>No chats yet</p>
          <p className="muted">Click New Chat to start</p>
        </div>
      ) : (
        <ul className="history-list">
          {/* The local chat is the newest: it was created by the last New Chat pick. */}
          {localChat ? <LocalChatItem chat={localChat} active={isNew} /> : null}
          {chats.map((chat) => (
            <ChatHistoryItem
              key={chat.id}
              chat={chat}
              active={chat.id === currentId}
              onRename={(title) => saveTitle(chat, title)}
              onDelete={() => setDeleting(chat)}
            />
          ))}
        </ul>
      )}
      {list.hasNextPage ? (
        <button
          type="button"
          className="button button-link"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading...' : 'Load older chats'}
        </button>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        type="danger"
        title="Delete Chat?"
        message="This chat, its analysis and all of its messages will be permanently deleted. This cannot be undone."
        confirmLabel="Delete"
        processing={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
