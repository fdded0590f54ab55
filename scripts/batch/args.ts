import { parseArgs } from 'node:util';

export interface TBatchArgs {
  input: string;
  api: string;
  key: string;
  out: string;
  concurrency: number;
  /** How long to wait for one analysis to finish, in seconds. */
  waitSeconds: number;
}

export const USAGE = `Usage: npm run batch -- <folder or CSV> [--api URL] [--key KEY] [--out results.csv] [--concurrency N] [--wait SECONDS]

  <folder>   every .jpg .jpeg .png .webp .dcm file in it (recursively)
  <CSV>      a 'path' (or 'file'/'image') column, relative to the CSV's folder; optional 'label'
             (ground truth: a finding label such as pneumonia, or normal), 'name', 'age', 'history'
  --api      server URL (default $CXR_API_URL or http://localhost:3000)
  --key      personal API key, cxr_... (default $CXR_API_KEY; create one in Settings)
  --out      results CSV (default batch-results.csv); <out>.state.jsonl keeps progress for resuming,
             and with labels <out>.summary.md / .summary.json hold the evaluation
  --concurrency  uploads in flight at once (default 4)
  --wait     seconds to wait for one analysis (default 300)`;

export function parseBatchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): TBatchArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      api: { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      concurrency: { type: 'string' },
      wait: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1 || !positionals[0]) throw new Error(USAGE);
  const key = values.key ?? env.CXR_API_KEY ?? '';
  if (!key.startsWith('cxr_')) throw new Error(`An API key (cxr_...) is required: --key or CXR_API_KEY.\n\n${USAGE}`);
  const concurrency = Number(values.concurrency ?? 4);
  const waitSeconds = Number(values.wait ?? 300);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new Error('--concurrency must be 1-32');
  if (!(waitSeconds > 0)) throw new Error('--wait must be a positive number of seconds');
  return {
    input: positionals[0],
    api: (values.api ?? env.CXR_API_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    key,
    out: values.out ?? 'batch-results.csv',
    concurrency,
    waitSeconds,
  };
}
