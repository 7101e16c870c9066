/**
 * Runs one argv without a shell, with a timeout that kills the whole process tree: the child
 * is spawned detached (its own process group) and the group is killed with `kill(-pgid)`,
 * so a `sh -c 'sleep 60 & …'` leaves nothing behind. Failures are returned as values.
 */
import { spawn } from 'node:child_process';

export interface ProcessOptions {
  argv: string[];
  /** Wall-clock limit (ms) before the process group is killed. */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Working directory of the child (default: ours). */
  cwd?: string;
  /** Bytes of stdout/stderr kept; the rest is read and dropped so the child never blocks. */
  captureBytes: number;
  signal?: AbortSignal;
}

export type ProcessResult =
  | { kind: 'exited'; exitCode: number; stdout: string; stderr: string; pid: number | undefined }
  | { kind: 'signaled'; signal: string; stdout: string; stderr: string; pid: number | undefined }
  | { kind: 'timeout'; stdout: string; stderr: string; pid: number | undefined }
  | { kind: 'aborted'; pid: number | undefined }
  | { kind: 'spawn_error'; message: string; code: string | undefined };

export function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const [command, ...args] = options.argv;
  if (command === undefined) return Promise.resolve({ kind: 'spawn_error', message: 'empty argv', code: undefined });
  return new Promise<ProcessResult>((resolve) => {
    const child = spawn(command, args, { shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: options.env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    const stdout = capture(child.stdout, options.captureBytes);
    const stderr = capture(child.stderr, options.captureBytes);
    let ending: 'timeout' | 'aborted' | undefined;
    let settled = false;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const finish = (result: ProcessResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = (): void => {
      ending ??= 'aborted';
      killGroup();
    };
    const timer = setTimeout(() => {
      ending ??= 'timeout';
      killGroup();
    }, options.timeoutMs);

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn_error', message: error.message, code: error.code }));
    // Background grandchildren can hold the pipes open after the child exits; kill them so
    // 'close' (all output read) arrives now instead of at the timeout.
    child.on('exit', killGroup);
    child.on('close', (exitCode, signalName) => {
      const pid = child.pid;
      const out = { stdout: stdout(), stderr: stderr(), pid };
      if (ending === 'aborted') finish({ kind: 'aborted', pid });
      else if (ending === 'timeout') finish({ kind: 'timeout', ...out });
      else if (exitCode !== null) finish({ kind: 'exited', exitCode, ...out });
      else finish({ kind: 'signaled', signal: signalName ?? 'unknown', ...out });
    });
  });
}

/** Keeps the first `limit` bytes of a stream and keeps draining the rest. */
function capture(stream: NodeJS.ReadableStream | null, limit: number): () => string {
  const chunks: Buffer[] = [];
  let kept = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (kept >= limit) return;
    const slice = chunk.subarray(0, limit - kept);
    chunks.push(slice);
    kept += slice.length;
  });
  // toString may end in half a multi-byte character at the cut; the replacement char is fine.
  return () => Buffer.concat(chunks).toString('utf8');
}
