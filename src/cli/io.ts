/** Where commands write: injectable so tests capture output without spawning. */
export interface CliIO {
  /** `columns`: the terminal's width when the stream is one (process.stdout has it, live across resizes). */
  stdout: { write(text: string): void; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): void; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

export function processIO(signal: AbortSignal): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signal };
}

/** The width of a stream that is a terminal; undefined for a pipe or a file (then nothing is fitted). */
export function terminalColumns(stream: CliIO['stdout']): number | undefined {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
}
