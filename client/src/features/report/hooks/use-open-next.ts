import { navigate } from 'wouter/use-browser-location';
import { useToast } from '../../../components/toast/use-toast';
import { openChat } from '../../../lib/current-chat';
import { errorText } from '../../../lib/error-text';
import { refreshQuery } from '../../../lib/refresh-query';
import { trpc } from '../../../lib/trpc';

/**
 * After a signature: the next unread, unclaimed study by urgency, claimed for the reader in a
 * team (worklist.next), opened in the viewer; none left: back to the worklist.
 */
export function useOpenNext(team: string | null) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const next = trpc.worklist.next.useMutation({
    onSuccess: (study) => {
      void refreshQuery(utils.worklist.list);
      if (study) openChat(study.chatId);
      else {
        toast.info('No study left to read');
        navigate('/chat/worklist');
      }
    },
    onError: (err) => toast.error(errorText(err, 'Could not open the next study')),
  });
  return { openNext: () => next.mutate({ team }), pending: next.isPending };
}
