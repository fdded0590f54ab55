import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CsvInputError } from './csv.js';

/** Rows listed in one refusal; the rest are counted, as for unreadable files. */
const SHOWN = 10;

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The CSV's rows name files inside the CSV's folder, and only those are read (docs/research.md):
 * a CSV handed over with a cohort must not upload `../../other-study/…`, `/home/…` or a symlink
 * that points out of the folder. Each path is resolved through every symlink (realpath) and
 * compared with the folder's own real path; the returned paths are those real paths, so the
 * file hashed and uploaded is the one checked. A file that does not exist is judged by its
 * written path and left to the hashing step, which lists every missing file. Every row is checked
 * before anything is uploaded, and all offending rows are named by line in one error (exit 2);
 * the paths themselves are not quoted, since file names often carry patient names.
 */
export async function checkInsideFolder(
  folder: string,
  rows: readonly { path: string; line: number }[],
): Promise<string[]> {
  const root = await realpath(folder);
  const outside: number[] = [];
  const real = await Promise.all(
    rows.map(async ({ path, line }) => {
      const written = resolve(root, path);
      const target = await realpath(written).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
        throw err;
      });
      if (!inside(root, target ?? written)) outside.push(line);
      return target ?? written;
    }),
  );
  if (outside.length) {
    outside.sort((a, b) => a - b);
    const shown = outside.slice(0, SHOWN).map((line) => `CSV line ${line}`);
    throw new CsvInputError(
      `${outside.length} row(s) name a file outside the CSV's folder (paths are relative to it; ` +
        `.., absolute paths and symlinks that point out are refused, nothing was uploaded):\n  ` +
        `${shown.join('\n  ')}${outside.length > SHOWN ? '\n  ...' : ''}`,
    );
  }
  return real;
}
