import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { CsvInputError, parseCsvObjectsWithLines } from './csv.js';

export interface TBatchInput {
  /** As written in the results: relative to the folder or CSV given. */
  file: string;
  absPath: string;
  label: string | null;
  patient: { full_name?: string; age?: string; medical_history?: string };
  /** Where the input came from, for messages: 'CSV line 7' or the relative path. */
  where?: string;
}

export const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.dcm', '.dicom']);

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(p)));
    else if (entry.isFile() && IMAGE_EXTENSIONS.has(extname(entry.name).toLowerCase())) out.push(p);
  }
  return out;
}

/** The images to submit, in a stable order: a folder's files, or the rows of a CSV. */
export async function listInputs(input: string): Promise<TBatchInput[]> {
  const root = resolve(input);
  if ((await stat(root)).isDirectory()) {
    const files = (await walk(root)).sort();
    return files.map((absPath) => ({
      file: relative(root, absPath),
      absPath,
      label: null,
      patient: {},
      where: relative(root, absPath),
    }));
  }
  const rows = parseCsvObjectsWithLines(await readFile(root, 'utf8'));
  const base = dirname(root);
  return rows.map(({ values: r, line }) => {
    const path = r.path || r.file || r.image;
    if (!path) throw new CsvInputError(`CSV line ${line} has no path (columns: path, file or image)`);
    // Legal CSV, but a path never spans lines: two stray quotes would otherwise merge rows.
    if (/[\r\n]/.test(path))
      throw new CsvInputError(`CSV line ${line}: the path runs over several lines (a stray " ?)`);
    const patient: TBatchInput['patient'] = {};
    if (r.name) patient.full_name = r.name;
    if (r.age) patient.age = r.age;
    if (r.history) patient.medical_history = r.history;
    return {
      file: path,
      absPath: resolve(base, path),
      label: r.label ? r.label.toLowerCase() : null,
      patient,
      where: `CSV line ${line}`,
    };
  });
}
