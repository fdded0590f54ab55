import { execFileSync } from 'node:child_process';
import { XMLParser } from 'fast-xml-parser';

/** All visible text of a .docx: unzip word/document.xml and collect every <w:t>. */
export function docxText(path: string): string {
  const xml = execFileSync('unzip', ['-p', path, 'word/document.xml'], { encoding: 'utf8' });
  const parsed: unknown = new XMLParser({ ignoreAttributes: true, isArray: () => false }).parse(xml);
  const parts: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (key === 'w:t' && (typeof v === 'string' || typeof v === 'number')) parts.push(String(v));
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(parsed, '');
  return parts.join(' ');
}
