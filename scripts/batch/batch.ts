import { parseBatchArgs } from './args.js';
import { runBatch } from './run-batch.js';

/** `npm run batch -- <folder or CSV> [--api URL --key KEY] [--out results.csv]`; see args.ts. */
async function main(): Promise<void> {
  let args;
  try {
    args = parseBatchArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const report = await runBatch(args);
  process.stderr.write(
    `${report.total} images: ${report.submitted} submitted, ${report.skipped} already done` +
      (report.retryLater ? `, ${report.retryLater} to retry (run the same command again)` : '') +
      `\nWrote ${report.outFiles.join(', ')}\n`,
  );
  if (report.retryLater) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`\nbatch: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
