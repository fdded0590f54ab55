import { runCli } from '@common/cli-args.js';
import { EXIT, parseBatchArgs, USAGE } from './args.js';
import { ServerUnreachableError } from './check-server.js';
import { CsvInputError } from './csv.js';
import { InputError } from './hash-inputs.js';
import { runBatch } from './run-batch.js';
import { calibrateCommand } from '../model/calibrate-command.js';

/** Maps why a run stopped to the exit codes USAGE documents. */
function exitCodeOf(err: unknown): number {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof CsvInputError || err instanceof InputError || code === 'ENOENT' || code === 'EACCES') {
    process.stderr.write(`batch: ${message}\n`);
    return EXIT.usage;
  }
  if (err instanceof ServerUnreachableError) {
    process.stderr.write(`batch: ${message}\n`);
    return EXIT.unreachable;
  }
  process.stderr.write(`\nbatch: ${message}\n`);
  // The API key refused (FatalApiError) or anything unexpected.
  return EXIT.stopped;
}

/** `npm run batch -- <folder or CSV> [--api URL --key KEY] [--out results.csv]`; see args.ts. */
runCli(
  USAGE,
  async () => {
    // `--model NAME --calibrate` (issue 47): an imported model's operating points, measured locally.
    if (process.argv.includes('--calibrate')) return calibrateCommand(process.argv.slice(2));
    const args = parseBatchArgs(process.argv.slice(2));
    const report = await runBatch(args);
    process.stderr.write(
      `${report.total} images: ${report.submitted} submitted, ${report.skipped} already done` +
        (report.retryLater ? `, ${report.retryLater} to retry (run the same command again)` : '') +
        `\nWrote ${report.outFiles.join(', ')}\n`,
    );
    if (report.serverLost) return EXIT.unreachable;
    return report.retryLater ? EXIT.retryLater : EXIT.ok;
  },
  exitCodeOf,
);
