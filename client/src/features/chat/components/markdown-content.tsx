import { useMemo } from 'react';
import { renderMarkdown } from '../lib/render-markdown';
import './markdown-content.css';

/** Message text as formatted HTML; renderMarkdown sanitises it (DOMPurify) before it reaches the DOM. */
export function MarkdownContent({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={`chat-md${className ? ` ${className}` : ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
