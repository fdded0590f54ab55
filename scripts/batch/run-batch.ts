import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { analyseImage, ConnectionLostError, FatalApiError, TransientApiError, type TApi } from './api-client.js';
import type { TBatchArgs } from './args.js';
import { checkServer } from './check-server.js';
import { readOtherRun } from './cohort/compare-runs.js';
import { readTruth } from './cohort/read-truth.js';
import { writeEvaluation } from './cohort/write-evaluation.js';
import { hashInputs } from './hash-inputs.js';
import { listInputs, type TBatchInput } from './list-inputs.js';
import { Progress } from './progress.js';
import { resultsCsv, type TResultRow } from './results.js';
import { StateStore, type TOutcome } from './state-store.js';

export interface TBatchReport {
  total: number;
  submitted: number;
  skipped: number;
  /** Transient failures: not recorded, retried by the next run. */
  retryLater: number;
  /** Set when the server stopped answering mid-run and the rest was left for the next run. */
  serverLost: boolean;
  outFiles: string[];
}

/**
 * Ground-truth problems before the first upload (also listed in the summary), one line per
 * problem with the rows it is on: a cohort with free-text findings repeats the same few names.
 */
function warnAboutTruth(inputs: readonly TBatchInput[], stderr: NodeJS.WriteStream): void {
  const rowsOf = new Map<string, string[]>();
  for (const input of inputs)
    for (const note of readTruth(input.label, input.findings)?.notes ?? [])
      rowsOf.set(note, [...(rowsOf.get(note) ?? []), input.where ?? input.file]);
  for (const [note, rows] of rowsOf) {
    const more = rows.length > 5 ? ` and ${rows.length - 5} more` : '';
    stderr.write(`${rows.slice(0, 5).join(', ')}${more}: ${note}\n`);
  }
}

/** Connection failures in a row (each already retried) that mean the server is gone, not flaky. */
const LOST_AFTER = 3;

/**
 * Submits every input through the REST API with at most `concurrency` uploads in flight, records
 * each final outcome in the state file as it arrives, and writes the results CSV (and, with
 * labels, the summary) from the state at the end, so a rerun completes what an earlier one left.
 */
export async function runBatch(
  args: TBatchArgs,
  stderr: NodeJS.WriteStream = process.stderr,
  argv: readonly string[] = process.argv.slice(2),
): Promise<TBatchReport> {
  const inputs = await listInputs(args.input, args.groupBy);
  // Read before any upload, so a wrong --compare file costs nothing.
  const other = args.compare ? await readOtherRun(args.compare) : null;
  warnAboutTruth(inputs, stderr);
  // `--out eval/v4/results.csv` into a folder that does not exist yet: made, as for any output.
  await mkdir(dirname(resolve(args.out)), { recursive: true });
  const state = await StateStore.open(`${args.out}.state.jsonl`);
  const hashed = await hashInputs(inputs);
  const copiesOf = new Map<string, number>();
  for (const h of hashed) copiesOf.set(h.sha256, (copiesOf.get(h.sha256) ?? 0) + 1);
  // Identical bytes are analysed once; every file naming them gets the same result row.
  const pending = [...new Map(hashed.filter((h) => !state.done.has(h.sha256)).map((h) => [h.sha256, h])).values()];
  const skipped = hashed.length - hashed.filter((h) => !state.done.has(h.sha256)).length;
  if (pending.length) await checkServer(args.api);
  const api: TApi = { url: args.api, key: args.key, waitSeconds: args.waitSeconds };
  const progress = new Progress(hashed.length, skipped, stderr);
  progress.draw();

  let retryLater = 0;
  let lostInARow = 0;
  let serverLost = false;
  let fatal: Error | null = null;
  let next = 0;
  const worker = async () => {
    while (!fatal && !serverLost && next < pending.length) {
      const { input, sha256 } = pending[next++]!;
      const copies = copiesOf.get(sha256) ?? 1;
      try {
        const outcome = await analyseImage(api, input.file, input.absPath, sha256, input.patient);
        lostInARow = 0;
        await state.record(outcome);
        for (let i = 0; i < copies; i++) progress.tick(outcome.status === 'completed' || outcome.status === 'refused');
      } catch (err) {
        if (err instanceof FatalApiError) fatal = err;
        else if (err instanceof TransientApiError) {
          retryLater += copies;
          stderr.write(`\n${input.file}: ${err.message} (will be retried on the next run)\n`);
          for (let i = 0; i < copies; i++) progress.tick(false);
          lostInARow = err instanceof ConnectionLostError ? lostInARow + 1 : 0;
          if (lostInARow >= LOST_AFTER) serverLost = true;
        } else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency, Math.max(pending.length, 1)) }, worker));
  // What was never started is left for the next run, like any transient failure.
  for (const item of pending.slice(next)) retryLater += copiesOf.get(item.sha256) ?? 1;
  progress.finish();
  if (fatal) throw fatal;

  const rows: TResultRow[] = hashed.flatMap(({ input, sha256 }) => {
    const outcome: TOutcome | undefined = state.done.get(sha256);
    return outcome ? [{ input: input as TBatchInput, outcome }] : [];
  });
  await writeFile(args.out, resultsCsv(rows));
  const outFiles = [args.out];
  if (rows.some((r) => r.input.label !== null || r.input.findings !== null))
    outFiles.push(...(await writeEvaluation({ args, argv, rows, other })));
  if (serverLost) stderr.write(`\nThe server at ${args.api} stopped answering; the run stopped early.\n`);
  return { total: hashed.length, submitted: next, skipped, retryLater, serverLost, outFiles };
}
