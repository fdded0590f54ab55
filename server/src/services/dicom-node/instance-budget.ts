import { Writable } from 'node:stream';

/**
 * One memory budget for the instances in flight across every association (issue 36, S9): the
 * bytes being received and the bytes handed on and not yet answered. Twelve pipelined 60 MB
 * C-STOREs took the server from 1.3 to 3.1 GB; past the budget an instance is refused (A700).
 */
export class InstanceBudget {
  used = 0;
  constructor(readonly limit: number) {}

  /** Takes n bytes if they fit; false (nothing taken) when they do not. */
  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  give(n: number) {
    this.used = Math.max(0, this.used - n);
  }
}

export type TSinkRefusal = 'too-large' | 'over-budget';

/**
 * Collects one C-STORE's data set within the instance limit and the shared budget. Once either is
 * passed the chunks are dropped and given back (the rest of the instance is read and drained, so
 * the association can go on) and the refusal is kept for the C-STORE's answer.
 */
export class BudgetedSink extends Writable {
  chunks: Buffer[] = [];
  size = 0;
  refusal: TSinkRefusal | null = null;
  private held = 0;

  constructor(
    private readonly budget: InstanceBudget,
    private readonly instanceLimit: number,
  ) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.size += chunk.length;
    if (!this.refusal && this.size > this.instanceLimit) this.refuse('too-large');
    else if (!this.refusal && !this.budget.take(chunk.length)) this.refuse('over-budget');
    else if (!this.refusal) {
      this.held += chunk.length;
      this.chunks.push(chunk);
    }
    done();
  }

  /** Gives the held bytes back (the instance was handed on as one copy, refused, or its connection closed). */
  release() {
    this.budget.give(this.held);
    this.held = 0;
    this.chunks = [];
  }

  private refuse(why: TSinkRefusal) {
    this.refusal = why;
    this.release();
  }
}
