/** A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise). */
export class Progress {
  private done = 0;
  private failed = 0;
  private lastDecile = -1;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly skipped: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  tick(ok: boolean): void {
    this.done++;
    if (!ok) this.failed++;
    this.draw();
  }

  line(): string {
    const width = 30;
    const n = this.done + this.skipped;
    const filled = this.total ? Math.round((n / this.total) * width) : width;
    const elapsed = (Date.now() - this.started) / 1000;
    const rate = this.done / Math.max(elapsed, 0.001);
    const eta = rate > 0 ? Math.round((this.total - n) / rate) : null;
    return (
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${n}/${this.total}` +
      (this.skipped ? ` (${this.skipped} from earlier runs)` : '') +
      (this.failed ? `, ${this.failed} not analysed` : '') +
      (eta !== null && n < this.total ? `, ~${eta}s left` : '')
    );
  }

  draw(): void {
    if (this.out.isTTY) {
      this.out.write(`\r${this.line()}\x1b[K`);
      return;
    }
    const decile = this.total ? Math.floor(((this.done + this.skipped) / this.total) * 10) : 10;
    if (decile !== this.lastDecile) {
      this.lastDecile = decile;
      this.out.write(`${this.line()}\n`);
    }
  }

  finish(): void {
    if (this.out.isTTY) this.out.write('\n');
  }
}
