import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { CsvInputError, parseCsv } from '../../scripts/batch/csv.js';
import { hashInputs, InputError } from '../../scripts/batch/hash-inputs.js';
import { listInputs } from '../../scripts/batch/list-inputs.js';

/** `npm run batch` at scale and on bad input: CSV errors by line, bounded hashing, fast failure. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/batch/batch.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('batch input and failure handling', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cxr-batch-safety-'));
  beforeAll(async () => {
    await mkdir(join(dir, 'images'), { recursive: true });
    for (let i = 0; i < 40; i++) await writeFile(join(dir, 'images', `f${i}.png`), `image ${i}`);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('a stray quote is an error naming the line where the broken row starts, not merged rows', () => {
    assert.throws(
      () => parseCsv('path,label\na.png,normal\n"b.png,normal\nc.png,pneumonia\n'),
      (err: Error) => {
        assert.ok(err instanceof CsvInputError);
        assert.match(err.message, /^CSV line 3 \(noticed at line 4\): a quoted field is never closed/);
        return true;
      },
    );
    assert.throws(
      () => parseCsv('path,label\na.png,normal\nb"x.png,normal\n'),
      /CSV line 3: a " inside an unquoted field/,
    );
    assert.throws(() => parseCsv('path,label\na.png,normal,extra\n'), /CSV line 2: a different number of fields/);
  });

  test('cell values never appear in a CSV error (they may be patient names)', () => {
    assert.throws(
      () => parseCsv('path,name\na.png,"Ada Lovelace"x\n'),
      (err: Error) => !err.message.includes('Ada') && /CSV line 2/.test(err.message),
    );
  });

  test('a path spanning lines (two stray quotes) is refused with its line', async () => {
    const csv = join(dir, 'two-quotes.csv');
    await writeFile(csv, 'path,label\nimages/f0.png,normal\n"images/f1.png,normal\nimages/f2.png",pneumonia\n');
    await assert.rejects(listInputs(csv), /CSV line 3: the path runs over several lines/);
  });

  test('hashing streams with bounded concurrency and matches sha256 of the bytes', async () => {
    const inputs = await listInputs(join(dir, 'images'));
    const hashed = await hashInputs(inputs, 3);
    assert.equal(hashed.length, 40);
    for (const h of hashed)
      assert.equal(
        h.sha256,
        createHash('sha256')
          .update(`image ${h.input.file.slice(1, -4)}`)
          .digest('hex'),
      );
  });

  test('missing files are all listed before anything is uploaded', async () => {
    const csv = join(dir, 'missing.csv');
    await writeFile(csv, 'path\nimages/f0.png\nimages/nope-1.png\nimages/nope-2.png\n');
    await assert.rejects(hashInputs(await listInputs(csv)), (err: Error) => {
      assert.ok(err instanceof InputError);
      assert.match(err.message, /2 input file\(s\) cannot be read:\n {2}CSV line 3: ENOENT\n {2}CSV line 4: ENOENT/);
      return true;
    });
    const run = await runCli([csv, '--key', 'cxr_test', '--out', join(dir, 'missing-out.csv')]);
    assert.equal(run.code, 2, run.stderr);
  });

  test('--help exits 0 and documents the exit codes; an unknown flag exits 2 naming it', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Exit codes:\n {2}0 {2}every image has a result/);
    const bad = await runCli([join(dir, 'images'), '--key', 'cxr_test', '--concurency', '2']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--concurency'/);
  });

  test('a dead server stops the run at once with exit 3 and nothing recorded', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r)); // a port that was just free: nothing listens there now
    const run = await runCli([
      join(dir, 'images'),
      '--api',
      `http://127.0.0.1:${port}`,
      '--key',
      'cxr_test',
      '--out',
      join(dir, 'dead.csv'),
    ]);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /Cannot reach the server at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
  });

  test(
    'a server that goes away mid-run stops the run after a few images (exit 3), leaving the rest to retry',
    { timeout: 120_000 },
    async () => {
      let uploads = 0;
      const srv = createServer((req, res) => {
        if (req.url === '/healthz') return void res.end('{"status":"ok"}');
        uploads++;
        req.socket.destroy(); // the connection drops, as when the server process dies
      });
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      const port = (srv.address() as { port: number }).port;
      try {
        const run = await runCli([
          join(dir, 'images'),
          '--api',
          `http://127.0.0.1:${port}`,
          '--key',
          'cxr_test',
          '--out',
          join(dir, 'lost.csv'),
          '--concurrency',
          '1',
        ]);
        assert.equal(run.code, 3, run.stderr);
        assert.match(run.stderr, /stopped answering; the run stopped early/);
        assert.match(run.stderr, /40 images: 3 submitted, 0 already done, 40 to retry/);
        assert.ok(uploads <= 3 * 4, `${uploads} upload attempts for 40 images`);
      } finally {
        srv.close();
      }
    },
  );
});
