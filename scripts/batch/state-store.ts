import { appendFile, readFile } from 'node:fs/promises';

/** One finished image, as kept in `<out>.state.jsonl` (one JSON object per line, append-only). */
export interface TOutcome {
  sha256: string;
  status: 'completed' | 'refused' | 'rejected' | 'failed';
  chatId: string | null;
  accepted: boolean | null;
  gateReason: string | null;
  modelVersion: string | null;
  topFinding: string | null;
  findings: { label: string; probability: number; threshold: number; call: string }[];
  /**
   * What the result lists as not assessed, with why for this film (null: the model version cannot
   * back it at all). Absent in state files written before it was recorded.
   */
  notAssessed?: { label: string; reason: string | null }[];
  error: string | null;
}

/**
 * Progress survives a crash or Ctrl-C: each outcome is appended as soon as it is known, and a
 * rerun skips every sha256 already there. A torn last line (killed mid-write) is ignored.
 * Only final outcomes are kept; transient errors are retried by the next run.
 */
export class StateStore {
  readonly done = new Map<string, TOutcome>();

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<StateStore> {
    const store = new StateStore(path);
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const o = JSON.parse(line) as TOutcome;
        if (typeof o.sha256 === 'string') store.done.set(o.sha256, o);
      } catch {
        // A partial line from an interrupted run: that image is simply submitted again.
      }
    }
    return store;
  }

  async record(outcome: TOutcome): Promise<void> {
    this.done.set(outcome.sha256, outcome);
    await appendFile(this.path, `${JSON.stringify(outcome)}\n`);
  }
}
