import { CliUsageError, intFlag, parseCliArgs } from '@common/cli-args.js';

export interface TBatchArgs {
  input: string;
  api: string;
  key: string;
  out: string;
  concurrency: number;
  /** How long to wait for one analysis to finish, in seconds. */
  waitSeconds: number;
}

/** The exit codes --help documents; scripts that wrap the batch can rely on them. */
export const EXIT = { ok: 0, stopped: 1, usage: 2, unreachable: 3, retryLater: 4 } as const;

export const USAGE = `Usage: npm run batch -- <folder or CSV> [--api URL] [--key KEY] [--out results.csv] [--concurrency N] [--wait SECONDS]

  <folder>   every .jpg .jpeg .png .webp .dcm file in it (recursively)
  <CSV>      a 'path' (or 'file'/'image') column, relative to the CSV's folder; optional 'label'
             (ground truth: a finding label such as pneumonia, or normal), 'name', 'age', 'history'
  --api      server URL (default $CXR_API_URL or http://localhost:3000)
  --key      personal API key, cxr_... (default $CXR_API_KEY; create one in Settings)
  --out      results CSV (default batch-results.csv); <out>.state.jsonl keeps progress for resuming,
             and with labels <out>.summary.md / .summary.json hold the evaluation
  --concurrency  uploads in flight at once (default 4)
  --wait     seconds to wait for one analysis (default 300)
  -h, --help this text

Exit codes:
  0  every image has a result (results written)
  1  stopped: the server refused the API key, or an unexpected error
  2  usage or input error: unknown flag, no key, a CSV line that cannot be read, a missing file
     (nothing was uploaded)
  3  the server cannot be reached (nothing was uploaded), or it stopped answering mid-run
  4  finished, but some images must be retried: run the same command again`;

export function parseBatchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): TBatchArgs {
  const { values, positionals } = parseCliArgs(argv, {
    api: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
    concurrency: { type: 'string' },
    wait: { type: 'string' },
  });
  if (positionals.length !== 1 || !positionals[0]) throw new CliUsageError('Give one folder or CSV file.');
  const key = values.key ?? env.CXR_API_KEY ?? '';
  if (!key.startsWith('cxr_')) throw new CliUsageError('An API key (cxr_...) is required: --key or CXR_API_KEY.');
  const concurrency = intFlag('concurrency', values.concurrency, 4, 1, 32);
  const waitSeconds = Number(values.wait ?? 300);
  if (!(waitSeconds > 0)) throw new CliUsageError('--wait must be a positive number of seconds');
  return {
    input: positionals[0],
    api: (values.api ?? env.CXR_API_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    key,
    out: values.out ?? 'batch-results.csv',
    concurrency,
    waitSeconds,
  };
}
