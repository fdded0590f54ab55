import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Messages are markdown. Raw HTML inside them (a patient name like `<img onerror=…>`, a pasted
 * tag) is shown as text rather than parsed, and images are never loaded from message content
 * (they could beacon out); the X-ray itself is rendered by the viewer from the message's imageUrl.
 */
const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ text }) => escapeHtml(text),
  },
});

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'b',
  'i',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
];

let hooked = false;
/** Links leave the app in a new tab without handing over the opener or the referrer. */
function hookLinks() {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
}

/**
 * Markdown → HTML that is safe for innerHTML: DOMPurify with a small allow-list (no scripts,
 * event handlers, styles, forms, frames or images; links only to http(s) and mailto).
 */
export function renderMarkdown(markdown: string): string {
  hookLinks();
  const html = marked.parse(markdown, { async: false });
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'title', 'colspan', 'rowspan', 'start'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
