import type { ReactNode } from 'react';
import './history-row.css';

/** Section 9: titles show at most 28 characters, then an ellipsis. */
export const TITLE_DISPLAY_LIMIT = 28;

export function truncateTitle(title: string): string {
  return title.length > TITLE_DISPLAY_LIMIT ? `${title.slice(0, TITLE_DISPLAY_LIMIT)}...` : title;
}

interface THistoryRowProps {
  title: string;
  patientName: string;
  active: boolean;
  /** Extra class names for the row (the local chat is styled apart). */
  className?: string;
  onOpen: () => void;
  /** The row's icon buttons (rename and delete, or discard). */
  children: ReactNode;
}

/** One sidebar chat row: the title and patient open the chat; the actions sit beside them. */
export function HistoryRow({ title, patientName, active, className, onOpen, children }: THistoryRowProps) {
  return (
    // The class string stays exactly as before the rows shared this markup (e2e tests compare it).
    <li className={`history-item ${className ? `${className} ` : ''}${active ? 'active' : ''}`}>
      <button
        type="button"
        className="history-open"
        aria-current={active ? 'true' : undefined}
        title={title}
        onClick={onOpen}
      >
        <span className="history-title">{truncateTitle(title)}</span>
        <span className="history-patient">{patientName}</span>
      </button>
      <div className="history-item-actions">{children}</div>
    </li>
  );
}
