/**
 * The assistant's markdown report as simple blocks, for formats that are not HTML (PDF, DOCX).
 * Only the subset compose-report writes is understood: headings, paragraphs, bullets, tables,
 * rules and inline emphasis (dropped: the document formats style headings themselves).
 */
export type TBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'bullet'; text: string }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'rule' };

export function inlineText(md: string): string {
  return md
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .trim();
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => inlineText(c));

export function reportBlocks(markdown: string): TBlock[] {
  const blocks: TBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: inlineText(paragraph.join(' ')) });
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) {
      flush();
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', text: inlineText(heading[1] ?? '') });
      continue;
    }
    if (/^(-{3,}|\*{3,})$/.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const bullet = /^[-*+]\s+(.*)$/.exec(line) ?? /^\d+[.)]\s+(.*)$/.exec(line);
    if (bullet) {
      flush();
      blocks.push({ kind: 'bullet', text: inlineText(bullet[1] ?? '') });
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      if (/^\|?\s*:?-{2,}/.test(line)) continue; // the header separator row
      const last = blocks[blocks.length - 1];
      if (last?.kind === 'table') last.rows.push(cells(line));
      else blocks.push({ kind: 'table', rows: [cells(line)] });
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}
