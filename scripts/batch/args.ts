import { CliUsageError, intFlag, parseCliArgs } from '@common/cli-args.js';

export interface TBatchArgs {
  input: string;
  api: string;
  key: string;
  out: string;
  concurrency: number;
  /** How long to wait for one analysis to finish, in seconds. */
  waitSeconds: number;
  /** Bootstrap seed and resample count: the same pair gives the same intervals. */
  seed: number;
  resamples: number;
  /** Another run's results CSV to compare AUROCs with (paired), or null. */
  compare: string | null;
  /** CSV columns whose values get a table each. */
  groupBy: string[];
  /** Where the served model's manifest is, to record its sha256. */
  modelDir: string;
}

/** The exit codes --help documents; scripts that wrap the batch can rely on them. */
export const EXIT = { ok: 0, stopped: 1, usage: 2, unreachable: 3, retryLater: 4 } as const;

export const USAGE = `Usage: npm run batch -- <folder or CSV> [--api URL] [--key KEY] [--out results.csv] [--concurrency N] [--wait SECONDS]
                      [--seed N] [--bootstrap N] [--group-by COLUMNS] [--compare other-results.csv] [--model-dir DIR]

  <folder>   every .jpg .jpeg .png .webp .dcm file in it (recursively)
  <CSV>      a 'path' (or 'file'/'image') column, relative to the CSV's folder and inside it (a row
             leaving it by .., an absolute path or a symlink is refused); optional ground truth:
             'label' (one finding such as pneumonia, or normal, or abnormal) and 'findings' (names
             separated by |, the model's or ChestX-ray14's, e.g. Effusion|Infiltration; normal or
             No Finding for none); 'patient' (an id: a patient's films are resampled together;
             never uploaded); 'group' (site, view, sex, age band: a table per value); 'name',
             'age', 'history' (sent as the patient profile)
  --api      server URL (default $CXR_API_URL or http://localhost:3000)
  --key      personal API key, cxr_... (default $CXR_API_KEY; create one in Settings)
  --out      results CSV (default batch-results.csv; a missing folder is created); <out>.state.jsonl
             keeps progress for resuming, and with ground truth <out>.summary.md / .summary.json
             and <out>.roc.png / .calibration.png hold the evaluation (docs/research.md)
  --concurrency  uploads in flight at once (default 4)
  --wait     seconds to wait for one analysis (default 300)
  --seed     bootstrap seed (default 1); --bootstrap resamples (default 2000)
  --group-by CSV columns to tabulate, comma-separated (default group), e.g. source,view
  --compare  a results CSV of the same films from another run (another model version): AUROC
             differences with paired bootstrap intervals
  --model-dir  the served model's folder, to record its sha256 (default $MODEL_DIR or models/cxr)
  -h, --help this text

Exit codes:
  0  every image has a result (results written)
  1  stopped: the server refused the API key, or an unexpected error
  2  usage or input error: unknown flag, no key, a CSV line that cannot be read, a missing file,
     a row outside the CSV's folder (nothing was uploaded)
  3  the server cannot be reached (nothing was uploaded), or it stopped answering mid-run
  4  finished, but some images must be retried: run the same command again`;

export function parseBatchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): TBatchArgs {
  const { values, positionals } = parseCliArgs(argv, {
    api: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
    concurrency: { type: 'string' },
    wait: { type: 'string' },
    seed: { type: 'string' },
    bootstrap: { type: 'string' },
    compare: { type: 'string' },
    'group-by': { type: 'string' },
    'model-dir': { type: 'string' },
  });
  if (positionals.length !== 1 || !positionals[0]) throw new CliUsageError('Give one folder or CSV file.');
  const key = values.key ?? env.CXR_API_KEY ?? '';
  if (!key.startsWith('cxr_')) throw new CliUsageError('An API key (cxr_...) is required: --key or CXR_API_KEY.');
  const concurrency = intFlag('concurrency', values.concurrency, 4, 1, 32);
  const waitSeconds = Number(values.wait ?? 300);
  if (!(waitSeconds > 0)) throw new CliUsageError('--wait must be a positive number of seconds');
  const groupBy = (values['group-by'] ?? 'group')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  return {
    input: positionals[0],
    api: (values.api ?? env.CXR_API_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    key,
    out: values.out ?? 'batch-results.csv',
    concurrency,
    waitSeconds,
    seed: intFlag('seed', values.seed, 1, 0, 2 ** 32 - 1),
    resamples: intFlag('bootstrap', values.bootstrap, 2000, 100, 100_000),
    compare: values.compare ?? null,
    groupBy,
    modelDir: values['model-dir'] ?? env.MODEL_DIR ?? 'models/cxr',
  };
}
