import type { ReactNode } from 'react';
import './chat-toolbar.css';

/**
 * The chat view's action bar. Report downloads (PDF/DOCX/JSON exports) plug in here as children
 * or by extending this component; it renders nothing visible when empty.
 */
export function ChatToolbar({ chatId, title, children }: { chatId: string; title: string; children?: ReactNode }) {
  return (
    <div className="chat-toolbar" role="toolbar" aria-label="Chat actions" data-chat-id={chatId}>
      {/* The chat's title is the screen's main heading (each screen has one level-one heading). */}
      <h1 className="chat-toolbar-title" title={title}>
        {title}
      </h1>
      <div className="chat-toolbar-actions">{children}</div>
    </div>
  );
}
