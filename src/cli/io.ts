/** Where commands write: injectable so tests capture output without spawning. */
export interface CliIO {
  stdout: { write(text: string): void; isTTY?: boolean };
  stderr: { write(text: string): void; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
}

export function processIO(signal: AbortSignal): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signal };
}
