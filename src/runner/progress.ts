/**
 * Progress: a redrawn bar with ETA and live token spend per arm on a TTY, plain lines
 * (every 10%) elsewhere so CI logs stay readable.
 */
export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
  /** TTY: replace the current line (the CLI's terminal-safe redraw); default `\r` + line + erase. */
  redraw?(line: string): void;
}

export class Progress {
  private done = 0;
  private readonly spend = new Map<string, number>();
  private readonly started = performance.now();
  private lastPlainDecile = -1;
  private lastDraw = 0;

  constructor(private readonly total: number, private readonly sink: ProgressSink | undefined, alreadyDone = 0) {
    this.done = alreadyDone;
  }

  addSpend(arm: string, tokens: number): void {
    this.spend.set(arm, (this.spend.get(arm) ?? 0) + tokens);
  }

  unitDone(): void {
    this.done += 1;
    this.render(false);
  }

  finish(): void {
    this.render(true);
    if (this.sink?.isTTY) this.sink.write('\n');
  }

  private render(force: boolean): void {
    const sink = this.sink;
    if (!sink || this.total === 0) return;
    const fraction = this.done / this.total;
    if (sink.isTTY) {
      const now = performance.now();
      if (!force && now - this.lastDraw < 100) return;
      this.lastDraw = now;
      const width = 24;
      const filled = Math.round(fraction * width);
      const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
      const line = `[${bar}] ${this.done}/${this.total} ${this.eta()} ${this.spendText()}`;
      if (sink.redraw) sink.redraw(line);
      else sink.write(`\r${line}\x1b[K`);
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile > this.lastPlainDecile || (force && this.done === this.total && this.lastPlainDecile < 10)) {
      this.lastPlainDecile = decile;
      sink.write(`progress ${this.done}/${this.total} (${Math.round(fraction * 100)}%) ${this.eta()} ${this.spendText()}\n`);
    }
  }

  private eta(): string {
    const elapsed = (performance.now() - this.started) / 1000;
    if (this.done === 0) return `elapsed ${elapsed.toFixed(0)}s`;
    const remaining = (elapsed / this.done) * (this.total - this.done);
    return `eta ${remaining.toFixed(0)}s`;
  }

  private spendText(): string {
    return [...this.spend].map(([arm, tokens]) => `${arm}=${formatTokens(tokens)}`).join(' ');
  }
}

function formatTokens(tokens: number): string {
  return tokens >= 1e6 ? `${(tokens / 1e6).toFixed(1)}M` : tokens >= 1e3 ? `${(tokens / 1e3).toFixed(1)}k` : String(tokens);
}
