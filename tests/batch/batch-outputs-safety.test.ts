import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { neutraliseCsvCell } from '@contracts/neutralise-text.js';
import { parseCsvRecords } from '../../scripts/batch/csv.js';

/**
 * Issue 39 (S6, S7 and the `--out` Info item) through the real `npm run batch` (a child
 * process): rows that leave the CSV's folder are refused before any upload, and what the run
 * writes (results.csv, summary.md) carries no spreadsheet formula and no HTML from the CSV. The
 * server is a stand-in that answers the three calls the command makes, counting uploads, so the
 * test needs no model: what is under test is what the command reads and writes.
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

const exportDoc = {
  analysis: { status: 'completed' },
  model: { version: 'stand-in-1' },
  gate: { accepted: true, reason: null },
  findings: [{ label: 'pneumonia', probability: 0.8125, threshold: 0.5, call: 'positive' }],
  topFinding: { label: 'pneumonia' },
};

describe('npm run batch: reads only inside the CSV folder, writes inert files', () => {
  const root = mkdtempSync(join(tmpdir(), 'cxr-batch-outputs-'));
  const cohort = join(root, 'cohort');
  const uploads: string[] = [];
  let server: Server;
  let api = '';

  beforeAll(async () => {
    await mkdir(join(cohort, 'images'), { recursive: true });
    await writeFile(join(cohort, 'images', 'a.png'), 'image a');
    await writeFile(join(cohort, 'images', 'b.png'), 'image b');
    await writeFile(join(root, 'secret.png'), 'outside the cohort');
    await symlink(join(root, 'secret.png'), join(cohort, 'images', 'link-out.png'));
    await symlink(join(cohort, 'images', 'a.png'), join(cohort, 'images', 'link-in.png'));
    server = createServer((req, res) => {
      if (req.url === '/healthz') return void res.end('{"status":"ok"}');
      if (req.method === 'POST' && req.url === '/api/chat/analyzer') {
        uploads.push(req.url);
        req.resume();
        req.on('end', () => {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ data: { chat_id: randomUUID() } }));
        });
        return;
      }
      if (req.url?.startsWith('/api/export/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(exportDoc));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server?.close();
    await rm(root, { recursive: true, force: true });
  });

  test('rows with .., an absolute path or a symlink out are refused by line, exit 2, nothing uploaded', async () => {
    const csv = join(cohort, 'escape.csv');
    await writeFile(
      csv,
      [
        'path,label',
        'images/a.png,normal',
        '../secret.png,normal',
        `${join(root, 'secret.png')},pneumonia`,
        'images/link-out.png,normal',
        'images/link-in.png,normal',
        'images/../images/b.png,normal',
      ].join('\n'),
    );
    const run = await runCli([csv, '--api', api, '--key', 'cxr_test', '--out', join(root, 'escape-out', 'r.csv')]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /3 row\(s\) name a file outside the CSV's folder/);
    assert.match(run.stderr, /CSV line 3\n {2}CSV line 4\n {2}CSV line 5\n/);
    assert.doesNotMatch(run.stderr, /CSV line (2|6|7)\b/, 'rows inside the folder, symlinks within it included');
    assert.doesNotMatch(run.stderr, /secret/, 'paths are not quoted');
    assert.equal(uploads.length, 0);
  });

  test('--out into a folder that does not exist creates it; cells are neutralised, numbers stay numbers', async () => {
    const csv = join(cohort, 'labels.csv');
    const formula = "-2+3+cmd|' /C calc'!A0";
    const html = '<img src=x onerror=alert(1)>';
    await writeFile(
      csv,
      [
        'path,label,findings,group',
        `images/a.png,pneumonia,"${formula}",${html}`,
        'images/b.png,=HYPERLINK(1),,a|b',
        'images/link-in.png,@SUM(1+1),,+cmd',
      ].join('\n'),
    );
    const out = join(root, 'not', 'yet', 'results.csv');
    const run = await runCli([csv, '--api', api, '--key', 'cxr_test', '--out', out, '--bootstrap', '100']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(uploads.length, 2, 'a.png and its in-folder symlink are the same bytes: one upload');

    const [header, ...rows] = parseCsvRecords(await readFile(out, 'utf8')).map((r) => r.fields);
    const column = (name: string) => header!.indexOf(name);
    const cells = rows.flatMap((r) => r);
    for (const cell of cells)
      assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `a cell a spreadsheet would run as a formula: ${cell}`);
    assert.equal(rows[0]![column('findings')], `'${formula}`);
    assert.equal(rows[1]![column('label')], "'=hyperlink(1)");
    assert.equal(rows[2]![column('label')], "'@sum(1+1)");
    assert.equal(rows[0]![column('p_pneumonia')], '0.8125', 'a probability is written as a number');

    const md = await readFile(`${out}.summary.md`, 'utf8');
    assert.doesNotMatch(md, /(?<!\\)<img/, 'no raw HTML from a group name');
    assert.match(md, /## Group: \\<img src=x onerror=alert\\\(1\\\)\\>/);
    assert.match(md, /## Group: a\\\|b/, 'a pipe in a group name is escaped');
    assert.match(md, /## Group: \\\+cmd/);
  });

  test('the one neutraliser: formulas prefixed whatever follows the sign, real numbers untouched', () => {
    for (const [value, written] of [
      ['-2+3+cmd', "'-2+3+cmd"],
      ['+1', "'+1"],
      ['-0.25', '-0.25'],
      ['1e-3', '1e-3'],
      ['-1e3+cmd', "'-1e3+cmd"],
      ['=1', "'=1"],
      ['\r=1', "'\r=1"],
      ['plain', 'plain'],
      [-0.5, '-0.5'],
      [Number.NaN, ''],
      [null, ''],
    ] as const)
      assert.equal(neutraliseCsvCell(value), written, String(value));
  });
});
