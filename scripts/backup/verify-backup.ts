import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  BackupError,
  FILES_DIR,
  MANIFEST_FILE,
  MANIFEST_HASH_FILE,
  sha256Of,
  sha256OfFile,
  ZManifest,
  type TManifest,
} from './backup-format.js';

async function readOrFail(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch {
    throw new BackupError(`The backup is incomplete: ${what} is missing. Nothing was restored.`);
  }
}

/** Yields the lines of an NDJSON dump one at a time (dumps can be larger than we want in memory). */
export async function* ndjsonLines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of rl) if (line.length) yield line;
}

/**
 * Checks everything before anything is written: the manifest's own hash, then every table dump
 * (hash, row count, one JSON object a line) and every image file (hash, size). Any mismatch
 * throws a BackupError naming the damaged part.
 */
export async function verifyBackupDir(dir: string): Promise<TManifest> {
  const text = await readOrFail(join(dir, MANIFEST_FILE), MANIFEST_FILE);
  const recorded = (await readOrFail(join(dir, MANIFEST_HASH_FILE), MANIFEST_HASH_FILE)).toString('utf8').trim();
  if (sha256Of(text) !== recorded) {
    throw new BackupError(
      'The backup is corrupt: manifest.json does not match its recorded sha256. Nothing was restored.',
    );
  }
  let manifest: TManifest;
  try {
    manifest = ZManifest.parse(JSON.parse(text.toString('utf8')));
  } catch {
    throw new BackupError(
      'The backup is corrupt: manifest.json is not a Chest Doctor AI backup manifest. Nothing was restored.',
    );
  }
  for (const t of manifest.tables) {
    const path = join(dir, t.file);
    await readOrFail(path, t.file).then(() => undefined);
    if ((await sha256OfFile(path)) !== t.sha256) {
      throw new BackupError(
        `The backup is corrupt: ${t.file} (table ${t.name}) does not match its sha256. Nothing was restored.`,
      );
    }
    let rows = 0;
    for await (const line of ndjsonLines(path)) {
      try {
        JSON.parse(line);
      } catch {
        throw new BackupError(`The backup is corrupt: ${t.file} line ${rows + 1} is not JSON. Nothing was restored.`);
      }
      rows++;
    }
    if (rows !== t.rows) {
      throw new BackupError(
        `The backup is corrupt: ${t.file} has ${rows} rows, the manifest says ${t.rows}. Nothing was restored.`,
      );
    }
  }
  for (const f of manifest.files) {
    const path = join(dir, FILES_DIR, f.key);
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (size < 0) throw new BackupError(`The backup is incomplete: image ${f.key} is missing. Nothing was restored.`);
    if (size !== f.bytes || (await sha256OfFile(path)) !== f.sha256) {
      throw new BackupError(`The backup is corrupt: image ${f.key} does not match its sha256. Nothing was restored.`);
    }
  }
  return manifest;
}
