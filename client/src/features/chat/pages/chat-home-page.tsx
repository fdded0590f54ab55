// First, so the components' own CSS follows the rules they share.
import '../chat.css';
import { useEffect, useState } from 'react';
import type { TProfile } from '@contracts/schemas/profile';
import { clearNewChatProfile, useCurrentChatId, useIsNewChat, useNewChatProfile } from '../../../lib/current-chat';
import { ChatScreen } from '../components/chat-screen';
import { NewAnalysis } from '../components/new-analysis';
import { WelcomeState } from '../components/welcome-state';

/**
 * /chat: `?chat=<id>` shows that chat (or its form when it has no messages), `?new=1` the form
 * for the profile picked in the sidebar, and nothing the welcome state.
 */
export function ChatHomePage() {
  const chatId = useCurrentChatId();
  const isNew = useIsNewChat();
  const navProfile = useNewChatProfile();
  // The profile rides in history state; it is kept here and then cleared from history (spec
  // section 4), and each new pick gets a fresh form.
  const [picked, setPicked] = useState<{ profile: TProfile; n: number } | null>(null);
  if (navProfile && navProfile !== picked?.profile) setPicked({ profile: navProfile, n: (picked?.n ?? 0) + 1 });
  else if (!isNew && picked) setPicked(null);
  useEffect(() => {
    if (navProfile) clearNewChatProfile();
  }, [navProfile]);

  if (chatId) return <ChatScreen key={chatId} chatId={chatId} />;
  if (isNew) return <NewAnalysis key={picked ? `p${picked.n}` : 'blank'} profile={picked?.profile ?? null} />;
  return <WelcomeState />;
}
