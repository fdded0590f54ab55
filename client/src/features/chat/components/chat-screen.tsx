import { Spinner } from '../../../components/spinner';
import { trpc } from '../../../lib/trpc';
import { ChatView } from './chat-view';
import { NewAnalysis } from './new-analysis';

/**
 * One chat by id. With messages (or an analysis under way) it is the chat view; with none it is
 * the form, prefilled from the chat's linked profile when that still exists.
 */
export function ChatScreen({ chatId }: { chatId: string }) {
  const chat = trpc.history.get.useQuery({ chatId, limit: 200 });
  const data = chat.data;
  const empty = data !== undefined && data.messages.length === 0 && data.chat.latestAnalysis === null;
  const profileId = empty ? data.chat.profileId : null;
  const profile = trpc.profile.get.useQuery({ profileId: profileId ?? '' }, { enabled: profileId !== null });

  if (chat.isPending) return <Spinner label="Loading chat..." />;
  if (chat.isError || !data) {
    return (
      <section className="chat-welcome" role="alert">
        <h1>Chat not found</h1>
        <p>It may have been deleted. Pick another chat in the sidebar or start a New Chat.</p>
      </section>
    );
  }
  if (empty) {
    if (profileId !== null && profile.isPending) return <Spinner label="Loading profile..." />;
    return <NewAnalysis key={profile.data?.id ?? 'blank'} profile={profile.data ?? null} />;
  }
  return <ChatView detail={data} />;
}
