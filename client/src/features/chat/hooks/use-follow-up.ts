import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../../components/toast/use-toast';
import { errorText, isUnauthorized } from '../../../lib/error-text';
import { trpc } from '../../../lib/trpc';
import { CHAT_MESSAGES } from '@contracts/schemas/chat.js';
import type { TDisplayMessage } from '../components/message-item';

/**
 * Follow-up questions: the question shows at once, then 'Thinking...', then the reply streams in
 * token by token over the subscription. When it is stored, the chat and the history list are
 * refetched and the local copies give way to the stored messages.
 */
export function useFollowUp(chatId: string) {
  const [pending, setPending] = useState<TDisplayMessage[]>([]);
  const [reply, setReply] = useState<{ text: string } | null>(null);
  const toast = useToast();
  const utils = trpc.useUtils();
  const sub = useRef<{ unsubscribe: () => void } | null>(null);
  useEffect(() => () => sub.current?.unsubscribe(), []);

  const send = useCallback(
    (query: string) => {
      const local: TDisplayMessage = {
        id: `local-${Date.now()}`,
        role: 'user',
        content: query,
        imageUrl: null,
        createdAt: new Date().toISOString(),
      };
      setPending((p) => [...p, local]);
      setReply({ text: '' });
      const fail = (err: unknown) => {
        sub.current?.unsubscribe();
        sub.current = null;
        setReply(null);
        setPending((p) => p.filter((m) => m.id !== local.id));
        // A 401 has already signed the user out (the tRPC link's handler): no toast then.
        if (!isUnauthorized(err)) toast.error(errorText(err, CHAT_MESSAGES.failed));
      };
      void (async () => {
        let streamId: string;
        try {
          // The question travels in a POST body; the tokens then come over SSE.
          ({ streamId } = await utils.client.chat.ask.mutate({ chatId, query }));
        } catch (err) {
          fail(err);
          return;
        }
        sub.current = utils.client.chat.onReply.subscribe(
          { streamId },
          {
            // The stream replays from its first chunk on every (re)connection: start over.
            onStarted: () => setReply({ text: '' }),
            onData: (chunk) => {
              if (chunk.type === 'token') {
                setReply((r) => ({ text: (r?.text ?? '') + chunk.text }));
                return;
              }
              // Stored: swap the local copies for the server's messages.
              sub.current?.unsubscribe();
              sub.current = null;
              void Promise.all([utils.history.get.invalidate({ chatId }), utils.history.list.invalidate()]).finally(
                () => {
                  setPending((p) => p.filter((m) => m.id !== local.id));
                  setReply(null);
                },
              );
            },
            onError: fail,
          },
        );
      })();
    },
    [chatId, toast, utils],
  );

  return { pending, reply, busy: reply !== null, send };
}
