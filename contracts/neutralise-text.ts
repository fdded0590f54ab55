/**
 * Text that leaves the product as a file someone opens elsewhere: a spreadsheet (CSV) or a
 * markdown viewer. Cells and names come from users (CSV columns, group names, file names), so
 * every writer of those files goes through these two functions and nothing else.
 */

export type TCsvCell = string | number | boolean | null | undefined;

/** A whole number or decimal as a spreadsheet reads it: never a formula, so never prefixed. */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * One CSV cell that a spreadsheet shows as text. A cell starting with =, +, -, @, tab or CR is
 * run as a formula by Excel, LibreOffice and Sheets (CSV injection, OWASP), so it gets a leading
 * apostrophe; "-2+3+cmd|' /C calc'!A0" starts with a digit after the minus and is still a
 * formula, which is why only a cell that is a number from end to end escapes the prefix.
 * Numbers (finite) are written as numbers.
 */
export function neutraliseCsvCell(value: TCsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * User text inside markdown (a table cell, a heading, a list item): shown as written, never as
 * formatting or HTML. Every markdown punctuation character is backslash-escaped (CommonMark
 * allows it for all ASCII punctuation), which also stops `<img onerror=…>` being raw HTML and a
 * pipe ending a table cell; line breaks and other control characters become spaces, because a
 * newline ends a table row or a heading.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
      .replace(/([\\`*_{}[\]()#+\-.!|<>~&])/g, '\\$1')
  );
}

/**
 * User text as a markdown code span (a command line): literal inside, so nothing in it is
 * formatting or HTML. The fence is one backtick longer than the longest run inside it.
 */
export function markdownCode(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
