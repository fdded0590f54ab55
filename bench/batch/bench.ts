/**
 * npm run bench:batch [-- --files 1000 --kb 4 --concurrency 8]
 *
 * Films per second, peak memory and wall time of `npm run batch` over a labelled cohort. The
 * files and their CSV (multi-label `findings`, a `patient` for every two films, a `group` of
 * four) are generated in a temp dir; the batch runs as its own process (its peak RSS is read by
 * report-rss.ts) against a local HTTP endpoint that speaks the three REST calls the batch makes.
 * That endpoint answers at once with random probabilities, on purpose: what is measured is the
 * batch client (listing, hashing, uploading, state, results) and its cohort evaluation
 * (bootstrap intervals, groups, plots), not the model. The last line is JSON.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intFlag, parseCliArgs, runCli } from '@common/cli-args.js';

const USAGE = 'Usage: npm run bench:batch -- [--files 1000] [--kb 4] [--concurrency 8]';

const exportDoc = () =>
  JSON.stringify({
    analysis: { status: 'completed' },
    model: { version: 'bench' },
    gate: { accepted: true, reason: null },
    findings: ['pneumonia', 'covid19', 'edema'].map((label) => {
      const probability = Math.random();
      return { label, probability, threshold: 0.5, call: probability >= 0.5 ? 'positive' : 'negative' };
    }),
    topFinding: null,
  });

const TRUTHS = ['Pneumonia', 'No Finding', 'COVID-19', 'Edema|Effusion', 'normal', 'Pneumonia|Edema'];

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
    if (req.url?.startsWith('/api/export/')) return json(200, exportDoc());
    json(404, '{"message":"not found"}');
  });
}

/** The films, 100 per folder as a PACS export would nest them (each distinct, so each is uploaded), and their CSV. */
async function makeCohort(dir: string, files: number, kb: number): Promise<string> {
  const lines = ['path,findings,patient,group'];
  for (let i = 0; i < files; i++) {
    const folder = String(Math.floor(i / 100)).padStart(3, '0');
    if (i % 100 === 0) await mkdir(join(dir, folder), { recursive: true });
    await writeFile(join(dir, folder, `img-${i}.png`), randomBytes(kb * 1024));
    lines.push(`${folder}/img-${i}.png,${TRUTHS[i % TRUTHS.length]},p${Math.floor(i / 2)},site-${i % 4}`);
  }
  const csv = join(dir, 'labels.csv');
  await writeFile(csv, `${lines.join('\n')}\n`);
  return csv;
}

runCli(USAGE, async () => {
  const { values } = parseCliArgs(process.argv.slice(2), {
    files: { type: 'string' },
    kb: { type: 'string' },
    concurrency: { type: 'string' },
  });
  const files = intFlag('files', values.files, 1000, 1, 1_000_000);
  const kb = intFlag('kb', values.kb, 4, 1, 100_000);
  const concurrency = intFlag('concurrency', values.concurrency, 8, 1, 32);
  const dir = mkdtempSync(join(tmpdir(), 'cxr-bench-batch-'));
  const server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const csv = await makeCohort(join(dir, 'images'), files, kb);
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
          csv,
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
    const summarised = await readFile(join(dir, 'results.csv.summary.json'), 'utf8').then(
      () => true,
      () => false,
    );
    const filmsPerSecond = files / wallS;
    console.log(
      `\n${files} labelled films of ${kb} KiB: exit ${code}, ${rows} result rows, summary ${summarised ? 'written' : 'MISSING'}, ` +
        `${filmsPerSecond.toFixed(1)} films/s, peak RSS ${peakRssMb.toFixed(0)} MB, wall ${wallS.toFixed(1)} s`,
    );
    console.log(
      JSON.stringify({
        bench: 'batch',
        files,
        fileKb: kb,
        concurrency,
        exitCode: code,
        resultRows: rows,
        summaryWritten: summarised,
        filmsPerSecond: Number(filmsPerSecond.toFixed(1)),
        peakRssMb: Math.round(peakRssMb),
        wallS: Number(wallS.toFixed(2)),
      }),
    );
    return code === 0 && rows === files && summarised ? 0 : 1;
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
