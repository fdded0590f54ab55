import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { analyseImage, FatalApiError, TransientApiError, type TApi } from './api-client.js';
import type { TBatchArgs } from './args.js';
import { listInputs, type TBatchInput } from './list-inputs.js';
import { Progress } from './progress.js';
import { resultsCsv, type TResultRow } from './results.js';
import { StateStore, type TOutcome } from './state-store.js';
import { summarise, summaryMarkdown } from './summary.js';

export interface TBatchReport {
  total: number;
  submitted: number;
  skipped: number;
  /** Transient failures: not recorded, retried by the next run. */
  retryLater: number;
  outFiles: string[];
}

/**
 * Submits every input through the REST API with at most `concurrency` uploads in flight, records
 * each final outcome in the state file as it arrives, and writes the results CSV (and, with
 * labels, the summary) from the state at the end, so a rerun completes what an earlier one left.
 */
export async function runBatch(args: TBatchArgs, stderr: NodeJS.WriteStream = process.stderr): Promise<TBatchReport> {
  const inputs = await listInputs(args.input);
  const state = await StateStore.open(`${args.out}.state.jsonl`);
  const hashed = await Promise.all(inputs.map(async (input) => ({ input, sha256: createHash('sha256').update(await readFile(input.absPath)).digest('hex') })));
  // Identical bytes are analysed once; every file naming them gets the same result row.
  const pending = [...new Map(hashed.filter((h) => !state.done.has(h.sha256)).map((h) => [h.sha256, h])).values()];
  const skipped = hashed.length - hashed.filter((h) => !state.done.has(h.sha256)).length;
  const api: TApi = { url: args.api, key: args.key, waitSeconds: args.waitSeconds };
  const progress = new Progress(hashed.length, skipped, stderr);
  progress.draw();

  let retryLater = 0;
  let fatal: Error | null = null;
  const queue = [...pending];
  const worker = async () => {
    for (let next = queue.shift(); next && !fatal; next = queue.shift()) {
      const { input, sha256 } = next;
      const copies = hashed.filter((h) => h.sha256 === sha256).length;
      try {
        const outcome = await analyseImage(api, input.file, await readFile(input.absPath), sha256, input.patient);
        await state.record(outcome);
        for (let i = 0; i < copies; i++) progress.tick(outcome.status === 'completed' || outcome.status === 'refused');
      } catch (err) {
        if (err instanceof FatalApiError) fatal = err;
        else if (err instanceof TransientApiError) {
          retryLater += copies;
          stderr.write(`\n${input.file}: ${err.message} (will be retried on the next run)\n`);
          for (let i = 0; i < copies; i++) progress.tick(false);
        } else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.concurrency, Math.max(pending.length, 1)) }, worker));
  progress.finish();
  if (fatal) throw fatal;

  const rows: TResultRow[] = hashed.flatMap(({ input, sha256 }) => {
    const outcome: TOutcome | undefined = state.done.get(sha256);
    return outcome ? [{ input: input as TBatchInput, outcome }] : [];
  });
  await writeFile(args.out, resultsCsv(rows));
  const outFiles = [args.out];
  if (rows.some((r) => r.input.label !== null)) {
    const summary = summarise(rows);
    await writeFile(`${args.out}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
    await writeFile(`${args.out}.summary.md`, summaryMarkdown(summary));
    outFiles.push(`${args.out}.summary.md`, `${args.out}.summary.json`);
  }
  return { total: hashed.length, submitted: pending.length, skipped, retryLater, outFiles };
}
