import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_PATIENT_MARKER, TEST_PATIENT_NAMES } from './test-patients.js';

/** Logs this old are still scanned, so an earlier run's leak is not forgotten until it is fixed. */
const RECENT_MS = 6 * 3600_000;
const NEEDLES = [TEST_PATIENT_MARKER, ...TEST_PATIENT_NAMES];

export interface TLogScan {
  /** Log files scanned (written in the last RECENT_MS). */
  files: number;
  /** Of those, the files written at or after `since`: the current run's own logs. */
  freshFiles: number;
  bytes: number;
  /** One line per patient name found: file and the text around it. */
  hits: string[];
}

/**
 * Scans every log file under dir for test patient names. Every name a test invents carries
 * TEST_PATIENT_MARKER (test-patients.ts), so one marker finds all of them.
 */
export async function scanLogs(dir: string, since = Date.now()): Promise<TLogScan> {
  const out: TLogScan = { files: 0, freshFiles: 0, bytes: 0, hits: [] };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    const { mtimeMs } = await stat(path);
    if (Date.now() - mtimeMs > RECENT_MS) continue;
    const text = await readFile(path, 'utf8');
    out.files++;
    if (mtimeMs >= since) out.freshFiles++;
    out.bytes += text.length;
    const lower = text.toLowerCase();
    for (const n of NEEDLES) {
      const at = lower.indexOf(n.toLowerCase());
      if (at >= 0) out.hits.push(`${path}: ${JSON.stringify(text.slice(Math.max(0, at - 80), at + 80))}`);
    }
  }
  return out;
}
