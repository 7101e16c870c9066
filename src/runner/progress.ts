/**
 * Progress of a run. On a terminal: one line, redrawn in place (`\r`, erase to the end), fitted
 * to the terminal's width so it never wraps. Elsewhere (CI logs, pipes): plain lines, at most
 * one per decile and never two within PLAIN_MIN_INTERVAL_MS (10 s), a heartbeat if a decile takes
 * longer than PLAIN_HEARTBEAT_MS, and always the last one.
 */
import { armLetter } from '../core/arm-letter.js';
import { plainProgressLine, progressLine, type ProgressSnapshot } from './progress-line.js';

export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
  /** TTY: replace the current line (the CLI's terminal-safe redraw); default `\r` + line + erase. */
  redraw?(line: string): void;
  /** Terminal width (columns), read at every redraw so a resize is followed; undefined: 80. */
  readonly columns?: number | undefined;
}

export interface ProgressArm {
  arm: string;
  variant: 'baseline' | 'candidate';
  n: number;
}

/** What the progress line needs of a committed unit. */
export interface ProgressUnit {
  arm: string;
  split: string;
  /** Paths that passed, of `n`. */
  passes: number;
  n: number;
}

export interface ProgressOptions {
  /** Units this session will run. */
  total: number;
  sink: ProgressSink | undefined;
  /** In plan order (A, B, C, D): the line keeps this order whatever finishes first. */
  arms: readonly ProgressArm[];
  /** Clock (ms); tests pass a fake one. */
  now?: () => number;
}

/** Redraws on a terminal at most this often (ms). */
const TTY_INTERVAL_MS = 150;
/** Plain lines: never two within this (ms)… */
export const PLAIN_MIN_INTERVAL_MS = 10_000;
/** …and one at least this often while the run goes on (ms), so a CI job does not look hung. */
export const PLAIN_HEARTBEAT_MS = 5 * 60_000;

interface ArmTally {
  label: string;
  passes: number;
  paths: number;
  tokens: number;
}

export class Progress {
  private done = 0;
  private readonly arms = new Map<string, ArmTally>();
  private readonly now: () => number;
  private readonly started: number;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastPlain: number;
  private lastPlainDecile = 0;
  private lastPlainDone = -1;
  private finished = false;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.lastPlain = this.started;
    const allN = options.arms.map((a) => a.n);
    for (const arm of options.arms) this.arms.set(arm.arm, { label: armLetter(arm, allN), passes: 0, paths: 0, tokens: 0 });
  }

  addSpend(arm: string, tokens: number): void {
    this.tally(arm).tokens += tokens;
  }

  unitDone(unit?: ProgressUnit): void {
    this.done += 1;
    // The regression set is easy by design: counting it would pull every rate toward 100%.
    if (unit && unit.split !== 'regression') {
      const tally = this.tally(unit.arm);
      tally.passes += unit.passes;
      tally.paths += unit.n;
    }
    this.render(false);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.render(true);
    if (this.options.sink?.isTTY && this.options.total > 0) this.options.sink.write('\n');
  }

  snapshot(): ProgressSnapshot {
    const elapsedMs = this.now() - this.started;
    const { done, total } = this;
    return {
      elapsedMs,
      done,
      total,
      arms: [...this.arms.values()].map((a) => ({ label: a.label, passRate: a.paths === 0 ? undefined : a.passes / a.paths, tokens: a.tokens })),
      etaMs: done >= etaMinimum(total) && done < total ? (elapsedMs / done) * (total - done) : undefined,
    };
  }

  private get total(): number {
    return this.options.total;
  }

  private tally(arm: string): ArmTally {
    let tally = this.arms.get(arm);
    if (!tally) {
      tally = { label: arm, passes: 0, paths: 0, tokens: 0 };
      this.arms.set(arm, tally);
    }
    return tally;
  }

  private render(force: boolean): void {
    const sink = this.options.sink;
    if (!sink || this.total === 0) return;
    const now = this.now();
    if (sink.isTTY) {
      if (!force && now - this.lastDraw < TTY_INTERVAL_MS) return;
      this.lastDraw = now;
      const line = progressLine(this.snapshot(), sink.columns ?? 80);
      if (sink.redraw) sink.redraw(line);
      else sink.write(`\r${line}\x1b[K`);
      return;
    }
    const decile = Math.floor((this.done / this.total) * 10);
    const due = (decile > this.lastPlainDecile && now - this.lastPlain >= PLAIN_MIN_INTERVAL_MS) || now - this.lastPlain >= PLAIN_HEARTBEAT_MS;
    if ((!force && !due) || this.lastPlainDone === this.done) return;
    this.lastPlain = now;
    this.lastPlainDone = this.done;
    this.lastPlainDecile = decile;
    sink.write(`${plainProgressLine(this.snapshot())}\n`);
  }
}

/**
 * Units before a first ETA: a tenth of the run, at least 3 and at most 50. The first units
 * include start-up (connections, the tokenizer's load) and say little about the rate.
 */
export function etaMinimum(total: number): number {
  return Math.max(3, Math.min(50, Math.ceil(total / 10)));
}
