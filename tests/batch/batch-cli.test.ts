import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import sharp from 'sharp';
import { ZBatchSummary } from '@contracts/schemas/batch-summary.js';
import { parseCsvObjects } from '../../scripts/batch/csv.js';
import { MODEL_DIR, modelInstalled, radiograph } from '../analysis/support/fixtures.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { writeDicom } from '../helpers/write-dicom.js';

/**
 * `npm run batch` end to end: the real CLI (a child process) against the real server and worker
 * (separate processes), over a folder with JPEG, PNG and DICOM radiographs and a CT that must be
 * refused; then a rerun that must resume instead of submitting again.
 */
function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/batch/batch.ts', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

async function dicomOf(jpeg: Buffer, modality: string): Promise<Buffer> {
  const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  return writeDicom({
    width: info.width,
    height: info.height,
    pixels: Array.from(data, (v) => v * 16),
    bitsStored: 12,
    modality,
  });
}

describe('batch command against the running app', () => {
  let app: E2eApp;
  let key: string;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'cxr-batch-'));
  const out = join(dir, 'out', 'results.csv');

  beforeAll(async () => {
    app = await startE2eApp({ MODEL_DIR: modelInstalled() ? MODEL_DIR : 'tests/fixtures/tiny-model' });
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Batch Researcher',
        email: `batch-${uniqueSuffix()}@example.test`,
        password: 'correct horse battery',
      }),
    });
    token = ((await signup.json()) as { token: string }).token;
    const created = await fetch(`${app.url}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'batch test' }),
    });
    key = ((await created.json()) as { data: { key: string } }).data.key;
    const a = await radiograph({ label: 'pneumonia', index: 0, side: 320 });
    const b = await radiograph({ label: 'normal', index: 0, side: 320 });
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'images', 'sub'), { recursive: true }));
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'out'), { recursive: true }));
    await writeFile(join(dir, 'images', 'a.jpg'), a);
    await writeFile(join(dir, 'images', 'b.png'), await sharp(b).png().toBuffer());
    await writeFile(
      join(dir, 'images', 'sub', 'c.dcm'),
      await dicomOf(await radiograph({ label: 'covid19', index: 0, side: 320 }), 'DX'),
    );
    await writeFile(join(dir, 'images', 'sub', 'ct.dcm'), await dicomOf(b, 'CT'));
    await writeFile(join(dir, 'images', 'notes.txt'), 'ignored');
    await writeFile(
      join(dir, 'labels.csv'),
      'path,label\nimages/a.jpg,pneumonia\nimages/b.png,normal\nimages/sub/c.dcm,covid19\nimages/sub/ct.dcm,normal\n',
    );
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const chatCount = async () => {
    const res = await fetch(`${app.url}/api/history/get-init-info`, { headers: { authorization: `Bearer ${key}` } });
    return ((await res.json()) as { data: { chats: unknown[] } }).data.chats.length;
  };

  test('a labelled CSV run writes per-image results and the evaluation summary', { timeout: 300_000 }, async () => {
    const run = await runCli([
      join(dir, 'labels.csv'),
      '--api',
      app.url,
      '--key',
      key,
      '--out',
      out,
      '--concurrency',
      '2',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\[#+\] 4\/4/, 'a progress bar on stderr');
    const rows = parseCsvObjects(await readFile(out, 'utf8'));
    assert.deepEqual(
      rows.map((r) => r.file),
      ['images/a.jpg', 'images/b.png', 'images/sub/c.dcm', 'images/sub/ct.dcm'],
    );
    for (const r of rows.slice(0, 3)) {
      assert.ok(['completed', 'refused'].includes(r.status ?? ''), `${r.file}: ${r.status} ${r.error}`);
      assert.match(r.chat_id ?? '', /^[0-9a-f-]{36}$/);
      assert.match(r.sha256 ?? '', /^[0-9a-f]{64}$/);
      assert.ok(r.model_version, 'model version');
      if (r.status === 'completed' && r.accepted === 'true') {
        const probs = Object.entries(r).filter(([k]) => k.startsWith('p_'));
        assert.ok(probs.length > 0 && probs.every(([, v]) => Number(v) >= 0 && Number(v) <= 1), 'probabilities');
        assert.ok(
          Object.keys(r).some((k) => k.startsWith('call_')),
          'calls',
        );
      }
    }
    const ct = rows[3];
    assert.equal(ct?.status, 'rejected');
    assert.match(ct?.error ?? '', /CT \(computed tomography\)/);
    const summary = ZBatchSummary.parse(JSON.parse(await readFile(`${out}.summary.json`, 'utf8')));
    assert.equal(summary.images, 4);
    assert.ok(Array.isArray(summary.findings));
    assert.match(await readFile(`${out}.summary.md`, 'utf8'), /AUROC \(95 % CI\)/);
    assert.ok(existsSync(`${out}.state.jsonl`));
  });

  test('running it again resumes: nothing is submitted twice', { timeout: 120_000 }, async () => {
    const before = await chatCount();
    const run = await runCli([join(dir, 'labels.csv'), '--api', app.url, '--key', key, '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /4 images: 0 submitted, 4 already done/);
    assert.equal(await chatCount(), before);
  });

  test('after an interruption only the unfinished images are submitted', { timeout: 300_000 }, async () => {
    const state = (await readFile(`${out}.state.jsonl`, 'utf8')).trim().split('\n');
    const sha = async (f: string) =>
      createHash('sha256')
        .update(await readFile(join(dir, 'images', f)))
        .digest('hex');
    const unfinished = new Set([await sha('a.jpg'), await sha('sub/ct.dcm')]);
    const kept = state.filter((l) => !unfinished.has((JSON.parse(l) as { sha256: string }).sha256));
    const torn = state.find((l) => !kept.includes(l))?.slice(0, 20) ?? '';
    // As a killed run leaves it: two outcomes missing, the last line cut in half.
    await writeFile(`${out}.state.jsonl`, `${kept.join('\n')}\n${torn}`);
    const before = await chatCount();
    const run = await runCli([join(dir, 'images'), '--api', app.url, '--key', key, '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /4 images: 2 submitted, 2 already done/);
    // The CT is refused at upload and leaves no chat; the other one makes a new chat.
    assert.equal(await chatCount(), before + 1);
    const rows = parseCsvObjects(await readFile(out, 'utf8'));
    assert.deepEqual(rows.map((r) => r.file).sort(), ['a.jpg', 'b.png', 'sub/c.dcm', 'sub/ct.dcm']);
  });

  test('a revoked or wrong key stops the run with a clear message', async () => {
    const run = await runCli([
      join(dir, 'images'),
      '--api',
      app.url,
      '--key',
      'cxr_wrong',
      '--out',
      join(dir, 'out', 'other.csv'),
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /The server refused the API key/);
  });
});
