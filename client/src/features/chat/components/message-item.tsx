import { MarkdownContent } from './markdown-content';
import './message-item.css';

export interface TDisplayMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  imageUrl: string | null;
  /** ISO time; null for the synthesized patient message. */
  createdAt: string | null;
  /** The report's heatmap rather than the X-ray itself. */
  imageKind?: 'xray' | 'heatmap';
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** One message: sender, formatted content, optional image, time. */
export function MessageItem({
  message,
  onShowImage,
}: {
  message: TDisplayMessage;
  onShowImage?: (url: string) => void;
}) {
  const who = message.role === 'user' ? 'You' : 'Chest Doctor AI';
  const imageAlt = message.imageKind === 'heatmap' ? 'Heatmap of the analysed X-ray' : 'Chest X-ray';
  return (
    <li className={`chat-msg is-${message.role}`} data-role={message.role}>
      <article aria-label={`Message from ${who}`}>
        <header className="chat-msg-head">
          <span className="chat-msg-who">{who}</span>
          {message.createdAt ? (
            <time className="chat-msg-time" dateTime={message.createdAt}>
              {timeOf(message.createdAt)}
            </time>
          ) : null}
        </header>
        {message.imageUrl ? (
          <button
            type="button"
            className="chat-msg-image"
            onClick={() => message.imageUrl && onShowImage?.(message.imageUrl)}
            aria-label={`Show ${imageAlt.toLowerCase()} in the viewer`}
          >
            <img src={message.imageUrl} alt={imageAlt} loading="lazy" />
          </button>
        ) : null}
        <MarkdownContent text={message.content} />
      </article>
    </li>
  );
}
