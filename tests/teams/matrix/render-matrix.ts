import { TEAM_KEY_REFUSED, type TCase } from './matrix-case.js';

export const MATRIX_START = '<!-- permission-matrix:start (written by tests/teams/permission-matrix.test.ts) -->';
export const MATRIX_END = '<!-- permission-matrix:end -->';

/** The matrix as the markdown table docs/teams.md shows, one line per row of the test's table. */
export function renderMatrix(cases: readonly TCase[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    '| Surface | Variant | admin | radiologist | clinician | another team | no account | team key |',
    '|---|---|---|---|---|---|---|---|',
    ...cases.map(
      (c) =>
        `| \`${esc(c.surface)}\` | ${esc(c.variant ?? '')} | ${[...c.expect, c.teamKey ?? TEAM_KEY_REFUSED].join(' | ')} |`,
    ),
  ];
  return [MATRIX_START, ...lines, MATRIX_END].join('\n');
}

/** docs text with the block between the markers replaced by `table`. */
export function withMatrix(doc: string, table: string): string {
  const start = doc.indexOf(MATRIX_START);
  const end = doc.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error('docs/teams.md has no permission-matrix markers');
  return doc.slice(0, start) + table + doc.slice(end + MATRIX_END.length);
}
