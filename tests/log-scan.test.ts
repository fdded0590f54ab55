import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import { scanLogs } from './helpers/scan-logs.js';
import { TEST_PATIENT_NAMES } from './helpers/test-patients.js';

/**
 * The scan of the run's logs itself runs after every e2e and fault-injection file, as the
 * global teardown in tests/setup/scan-logs-after-run.ts; this checks that it can fail.
 */
test('the scanner finds a planted patient name (so a clean result means something)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cxr-logscan-'));
  const since = Date.now() - 2000;
  writeFileSync(join(dir, 'server.log'), `{"level":30,"msg":"created chat for ${TEST_PATIENT_NAMES[1]}"}\n`);
  const r = await scanLogs(dir, since);
  await rm(dir, { recursive: true, force: true });
  assert.equal(r.files, 1);
  assert.equal(r.freshFiles, 1);
  assert.ok(r.hits.length >= 1);
});

test('an empty log directory scans 0 files (which the run-end scan refuses)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cxr-logscan-'));
  const r = await scanLogs(dir);
  await rm(dir, { recursive: true, force: true });
  assert.deepEqual(r, { files: 0, freshFiles: 0, bytes: 0, hits: [] });
});
