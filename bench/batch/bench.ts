/**
 * npm run bench:batch [-- --files 5000 --kb 4 --concurrency 8]
 *
 * Peak memory and wall time of `npm run batch` over many files. The files are generated in a
 * temp dir; the batch runs as its own process (its peak RSS is read by report-rss.ts) against a
 * local HTTP endpoint that speaks the three REST calls the batch makes. That endpoint answers at
 * once without analysing anything, on purpose: what is measured is the batch client (listing,
 * hashing, uploading, state, results), not the model. The last line is JSON.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intFlag, parseCliArgs, runCli } from '@common/cli-args.js';

const USAGE = 'Usage: npm run bench:batch -- [--files 5000] [--kb 4] [--concurrency 8]';

const EXPORT_DOC = JSON.stringify({
  analysis: { status: 'completed' },
  model: { version: 'bench' },
  gate: { accepted: true, reason: null },
  findings: [{ label: 'pneumonia', probability: 0.5, threshold: 0.5, call: 'positive' }],
  topFinding: null,
});

function answer(req: IncomingMessage, res: ServerResponse): void {
  let bytes = 0;
  req.on('data', (c: Buffer) => (bytes += c.length));
  req.on('end', () => {
    const json = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.url === '/healthz') return json(200, '{"status":"ok"}');
    if (req.method === 'POST' && req.url === '/api/chat/analyzer') {
      return bytes > 0
        ? json(202, JSON.stringify({ data: { chat_id: randomUUID() } }))
        : json(400, '{"message":"empty"}');
    }
    if (req.url?.startsWith('/api/export/')) return json(200, EXPORT_DOC);
    json(404, '{"message":"not found"}');
  });
}

async function makeFiles(dir: string, files: number, kb: number): Promise<void> {
  // 100 per folder, as a PACS export would nest them; every file distinct, so each is uploaded.
  for (let i = 0; i < files; i++) {
    const sub = join(dir, String(Math.floor(i / 100)).padStart(3, '0'));
    if (i % 100 === 0) await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `img-${i}.png`), randomBytes(kb * 1024));
  }
}

runCli(USAGE, async () => {
  const { values } = parseCliArgs(process.argv.slice(2), {
    files: { type: 'string' },
    kb: { type: 'string' },
    concurrency: { type: 'string' },
  });
  const files = intFlag('files', values.files, 5000, 1, 1_000_000);
  const kb = intFlag('kb', values.kb, 4, 1, 100_000);
  const concurrency = intFlag('concurrency', values.concurrency, 8, 1, 32);
  const dir = mkdtempSync(join(tmpdir(), 'cxr-bench-batch-'));
  const server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    await makeFiles(join(dir, 'images'), files, kb);
    const rssFile = join(dir, 'rss');
    const started = process.hrtime.bigint();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          './bench/batch/report-rss.ts',
          'scripts/batch/batch.ts',
          join(dir, 'images'),
          '--api',
          `http://127.0.0.1:${port}`,
          '--key',
          'cxr_bench',
          '--out',
          join(dir, 'results.csv'),
          '--concurrency',
          String(concurrency),
        ],
        { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, BENCH_RSS_OUT: rssFile } },
      );
      child.on('exit', resolve);
    });
    const wallS = Number(process.hrtime.bigint() - started) / 1e9;
    const peakRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
    const rows = (await readFile(join(dir, 'results.csv'), 'utf8')).trim().split('\n').length - 1;
    console.log(
      `\n${files} files of ${kb} KiB: exit ${code}, ${rows} result rows, peak RSS ${peakRssMb.toFixed(0)} MB, wall ${wallS.toFixed(1)} s`,
    );
    console.log(
      JSON.stringify({
        bench: 'batch',
        files,
        fileKb: kb,
        concurrency,
        exitCode: code,
        resultRows: rows,
        peakRssMb: Math.round(peakRssMb),
        wallS: Number(wallS.toFixed(2)),
      }),
    );
    return code === 0 && rows === files ? 0 : 1;
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
