import { useState } from 'react';
import { navigate, usePathname } from 'wouter/use-browser-location';
import { ChatHistoryList } from '../../chat-history/components/chat-history-list';
import { SpaceSwitcher } from '../../teams/components/space-switcher';
import { NewChatModal } from './new-chat-modal';
import './sidebar.css';

interface TSidebarProps {
  id: string;
  user: { name: string; email: string };
}

/** Section 2's sidebar: the space (issue 32), Profiles, Worklist, Team, New Chat, Chat History, Settings. */
export function Sidebar({ id, user }: TSidebarProps) {
  const pathname = usePathname();
  const [newChatOpen, setNewChatOpen] = useState(false);
  return (
    <nav id={id} className="sidebar" aria-label="Main">
      <div className="sidebar-brand">
        <span className="logo-mark" aria-hidden="true">
          +
        </span>
        <span>Chest Doctor AI</span>
      </div>
      <SpaceSwitcher />
      <div className="sidebar-actions">
        <button
          type="button"
          className={`sidebar-button ${pathname === '/chat/profiles' ? 'active' : ''}`}
          aria-current={pathname === '/chat/profiles' ? 'page' : undefined}
          onClick={() => navigate('/chat/profiles')}
        >
          Profiles
        </button>
        <button
          type="button"
          className={`sidebar-button ${pathname === '/chat/worklist' ? 'active' : ''}`}
          aria-current={pathname === '/chat/worklist' ? 'page' : undefined}
          onClick={() => navigate('/chat/worklist')}
        >
          Worklist
        </button>
        <button
          type="button"
          className={`sidebar-button ${pathname.startsWith('/chat/teams') ? 'active' : ''}`}
          aria-current={pathname.startsWith('/chat/teams') ? 'page' : undefined}
          onClick={() => navigate('/chat/teams')}
        >
          Team
        </button>
        <button type="button" className="sidebar-button sidebar-button-primary" onClick={() => setNewChatOpen(true)}>
          New Chat
        </button>
      </div>
      <ChatHistoryList />
      <div className="sidebar-footer">
        <div className="sidebar-user" title={user.email}>
          <span className="avatar avatar-small" aria-hidden="true">
            {user.name.trim().charAt(0).toUpperCase() || '?'}
          </span>
          <span className="sidebar-user-name">{user.name}</span>
        </div>
        <button
          type="button"
          className={`sidebar-button ${pathname === '/chat/settings' ? 'active' : ''}`}
          aria-current={pathname === '/chat/settings' ? 'page' : undefined}
          onClick={() => navigate('/chat/settings')}
        >
          Settings
        </button>
      </div>
      <NewChatModal open={newChatOpen} onClose={() => setNewChatOpen(false)} />
    </nav>
  );
}
