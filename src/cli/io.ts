/** Where commands write: injectable so tests capture output without spawning. */
import { terminalSafe } from '../core/terminal-text.js';

export interface CliStream {
  write(text: string): void;
  isTTY?: boolean;
  /** The terminal's width when the stream is one (process.stdout has it, live across resizes). */
  columns?: number | undefined;
  /**
   * TTY only: replace the current line with `line` (carriage return, the line, erase to its
   * end) — the progress bar. The one way a command emits terminal controls.
   */
  redraw?(line: string): void;
}

export interface CliIO {
  stdout: CliStream;
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

export function processIO(signal: AbortSignal): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signal };
}

/**
 * The same streams, with every write passed through `terminalSafe`: whatever a command
 * prints — case ids, model outputs, diffs, upstream error bodies, error messages quoting a
 * file — no terminal control from data reaches the terminal. main() gives commands only this.
 */
export function terminalSafeIO(io: CliIO): CliIO {
  const wrap = (stream: CliStream): CliStream => ({
    write: (text) => stream.write(terminalSafe(text)),
    ...(stream.isTTY === undefined ? {} : { isTTY: stream.isTTY }),
    // Live: a resized terminal is followed.
    get columns() {
      return stream.columns;
    },
    redraw: (line) => stream.write(`\r${terminalSafe(line).replace(/\n/g, ' ')}\x1b[K`),
  });
  return { ...io, stdout: wrap(io.stdout), stderr: wrap(io.stderr) };
}

/** The width of a stream that is a terminal; undefined for a pipe or a file (then nothing is fitted). */
export function terminalColumns(stream: CliIO['stdout']): number | undefined {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
}
