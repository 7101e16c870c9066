/**
 * Runs one argv without a shell, with a timeout that kills the whole process tree: the child
 * is spawned detached (its own session and process group); at the timeout, at an abort and
 * when the child exits, the group and every escaped descendant are killed (`process-tree.ts`),
 * so neither `sh -c 'sleep 60 & …'` nor `setsid sleep 1000` leaves anything behind or holds
 * the result past the timeout. Failures are returned as values.
 */
import { spawn } from 'node:child_process';
import { killProcessTree, newProcessTag, PROCESS_TAG_ENV, treeRoot } from './process-tree.js';

export interface ProcessOptions {
  argv: string[];
  /** Wall-clock limit (ms) before the process tree is killed; the result follows within about 0.5 s. */
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

/** How long (ms) after a timeout's kill we wait for the child's exit and pipes before settling. */
const KILL_GRACE_MS = 500;
/**
 * How long (ms) after the child exited (and its tree was killed) we still wait for the pipes:
 * only a holder we could not kill keeps them open that long; generous so a loaded machine
 * still reads all the output that was written.
 */
const PIPE_GRACE_MS = 2000;

export function runProcess(options: ProcessOptions): Promise<ProcessResult> {
  const [command, ...args] = options.argv;
  if (command === undefined) return Promise.resolve({ kind: 'spawn_error', message: 'empty argv', code: undefined });
  return new Promise<ProcessResult>((resolve) => {
    const tag = newProcessTag();
    const env = { ...options.env, [PROCESS_TAG_ENV]: tag };
    const child = spawn(command, args, { shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
    const stdout = capture(child.stdout, options.captureBytes);
    const stderr = capture(child.stderr, options.captureBytes);
    let ending: 'timeout' | 'aborted' | undefined;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const root = treeRoot(child.pid, tag);
    let killed = false;
    const killTree = (): void => {
      // One kill of the tree is enough: everything in it got SIGKILL (scans cost a /proc walk).
      if (killed) return;
      killed = true;
      killProcessTree(child.pid, root);
    };
    const finish = (result: ProcessResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // A descendant we could not kill (another user's, or one that scrubbed its env and lost
      // its parent) may still hold the pipes: stop reading so it cannot hold us.
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const settle = (): void => {
      const pid = child.pid;
      const out = { stdout: stdout(), stderr: stderr(), pid };
      if (ending === 'aborted') finish({ kind: 'aborted', pid });
      else if (ending === 'timeout') finish({ kind: 'timeout', ...out });
      else if (exit?.code !== null && exit?.code !== undefined) finish({ kind: 'exited', exitCode: exit.code, ...out });
      else finish({ kind: 'signaled', signal: exit?.signal ?? 'unknown', ...out });
    };
    const onAbort = (): void => {
      ending ??= 'aborted';
      killTree();
    };
    const timer = setTimeout(() => {
      ending ??= 'timeout';
      killTree();
      // The kill is SIGKILL; if the child still has not exited (uninterruptible sleep), do not
      // wait for it either: the timeout is a promise to the caller.
      graceTimer ??= setTimeout(settle, KILL_GRACE_MS);
    }, options.timeoutMs);

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn_error', message: error.message, code: error.code }));
    // Background and escaped grandchildren can hold the pipes open after the child exits, and
    // would outlive the run: kill them so 'close' (all output read) arrives now. If a pipe is
    // still held after a grace, settle with what was read.
    child.on('exit', (code, signalName) => {
      exit = { code, signal: signalName };
      killTree();
      clearTimeout(graceTimer);
      graceTimer = setTimeout(settle, PIPE_GRACE_MS);
    });
    child.on('close', (code, signalName) => {
      exit ??= { code, signal: signalName };
      settle();
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
