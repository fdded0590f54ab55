import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { E2E_LOG_DIR } from './helpers/e2e-app.js';
import { TEST_PATIENT_MARKER, TEST_PATIENT_NAMES } from './helpers/test-patients.js';

/**
 * Runs last (the file name sorts after every test folder): scans the logs of every server and
 * worker process the test run started (E2E_LOG_DIR: e2e apps and fault-injection processes)
 * for patient data. Every test patient name carries TEST_PATIENT_MARKER (tests/helpers/test-patients.ts),
 * so one marker finds all of them. Logs from the last 6 hours are scanned, so an earlier run's
 * leak is not forgotten until it is fixed.
 */
const RECENT_MS = 6 * 3600_000;
const NEEDLES = [TEST_PATIENT_MARKER, ...TEST_PATIENT_NAMES];

async function scan(dir: string): Promise<{ files: number; bytes: number; hits: string[] }> {
  const out = { files: 0, bytes: 0, hits: [] as string[] };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    if (Date.now() - (await stat(path)).mtimeMs > RECENT_MS) continue;
    const text = await readFile(path, 'utf8');
    out.files++;
    out.bytes += text.length;
    const lower = text.toLowerCase();
    for (const n of NEEDLES) {
      const at = lower.indexOf(n.toLowerCase());
      if (at >= 0) out.hits.push(`${path}: ${JSON.stringify(text.slice(Math.max(0, at - 80), at + 80))}`);
    }
  }
  return out;
}

test('the scanner finds a planted patient name (so a clean result means something)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cxr-logscan-'));
  writeFileSync(join(dir, 'server.log'), `{"level":30,"msg":"created chat for ${TEST_PATIENT_NAMES[1]}"}\n`);
  const r = await scan(dir);
  await rm(dir, { recursive: true, force: true });
  assert.equal(r.files, 1);
  assert.ok(r.hits.length >= 1);
});

test('no test patient name appears in any log of the test run', async () => {
  const r = await scan(E2E_LOG_DIR);
  console.log(`log scan: ${r.files} log files, ${(r.bytes / 1024).toFixed(0)} KiB under ${E2E_LOG_DIR}`);
  assert.deepEqual(r.hits, [], `patient data in logs:\n${r.hits.join('\n')}`);
});
