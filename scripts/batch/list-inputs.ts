import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { checkInsideFolder } from './check-inside-folder.js';
import { CsvInputError, parseCsvObjectsWithLines } from './csv.js';

export interface TBatchInput {
  /** As written in the results: relative to the folder or CSV given. */
  file: string;
  absPath: string;
  label: string | null;
  /** Ground truth, '|'-separated finding names (ChestX-ray14 style); null when the CSV has no such cell. */
  findings: string | null;
  /** Bootstrap cluster: films of one patient are resampled together. Never sent to the server. */
  patientId: string | null;
  /** Subgroup values by column (`group`, or the --group-by columns), for the per-group tables. */
  groups: Record<string, string>;
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
export async function listInputs(input: string, groupBy: readonly string[] = ['group']): Promise<TBatchInput[]> {
  const root = resolve(input);
  if ((await stat(root)).isDirectory()) {
    const files = (await walk(root)).sort();
    return files.map((absPath) => ({
      file: relative(root, absPath),
      absPath,
      label: null,
      findings: null,
      patientId: null,
      groups: {},
      patient: {},
      where: relative(root, absPath),
    }));
  }
  const rows = parseCsvObjectsWithLines(await readFile(root, 'utf8'));
  const base = dirname(root);
  const inputs = rows.map(({ values: r, line }) => {
    const path = r.path || r.file || r.image;
    if (!path) throw new CsvInputError(`CSV line ${line} has no path (columns: path, file or image)`);
    // Legal CSV, but a path never spans lines: two stray quotes would otherwise merge rows.
    if (/[\r\n]/.test(path))
      throw new CsvInputError(`CSV line ${line}: the path runs over several lines (a stray " ?)`);
    const patient: TBatchInput['patient'] = {};
    if (r.name) patient.full_name = r.name;
    if (r.age) patient.age = r.age;
    if (r.history) patient.medical_history = r.history;
    const groups: Record<string, string> = {};
    for (const column of groupBy) if (r[column]) groups[column] = r[column];
    return {
      file: path,
      absPath: path,
      label: r.label ? r.label.toLowerCase() : null,
      findings: r.findings || null,
      patientId: r.patient || null,
      groups,
      patient,
      where: `CSV line ${line}`,
      line,
    };
  });
  const real = await checkInsideFolder(
    base,
    inputs.map((i) => ({ path: i.file, line: i.line })),
  );
  return inputs.map(({ line: _line, ...input }, i) => ({ ...input, absPath: real[i]! }));
}
