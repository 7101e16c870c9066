/**
 * Every write the gateway makes to its data dir — reservations, settlements, ledger records —
 * in one order. A write runs at once; when the disk refuses it (ENOSPC, EIO, …) it and every
 * later write wait in memory, in order, and the gateway is "in disk trouble": new calls get a
 * 503 naming the data dir, the calls in flight finish, and their records land as soon as
 * writes succeed again (on a full disk at once: the headroom file is given back for them).
 * Nothing is dropped and nothing throws out of the event loop.
 *
 * Files are fdatasync'd together every `syncEveryMs`, off the event loop: one flush for many
 * calls, never one per call on a request's path.
 */
import type { AppendFile } from './append-file.js';
import type { Headroom } from './headroom.js';

export interface DiskTrouble {
  /** The error code: ENOSPC, EIO, EDQUOT, EROFS, … */
  code: string;
  /** One line for the 503 reply and the log; names the data dir, never a secret. */
  message: string;
}

interface PendingWrite {
  write: () => void;
  then: (() => void) | undefined;
}

/** How often a gateway in trouble tries its waiting writes again (ms). */
const RETRY_EVERY_MS = 1_000;
/** A request tries them at most this often (ms). */
const REQUEST_RETRY_MS = 200;
const SPACE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export class WriteQueue {
  private readonly waiting: PendingWrite[] = [];
  private problem: DiskTrouble | undefined;
  private triedAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly syncTimer: NodeJS.Timeout;
  private readonly files = new Set<AppendFile>();

  constructor(private readonly dir: string, private readonly headroom: Headroom | undefined, private readonly log?: (line: string) => void, syncEveryMs = 200) {
    this.syncTimer = setInterval(() => this.syncAll(), syncEveryMs);
    this.syncTimer.unref();
  }

  /** fdatasync'd with the others every interval. */
  track(file: AppendFile): void {
    this.files.add(file);
  }

  untrack(file: AppendFile): void {
    this.files.delete(file);
  }

  /** Writes now, or after the writes still waiting; `then` runs once it is written. */
  append(write: () => void, then?: () => void): void {
    if (this.waiting.length === 0 && this.run(write)) {
      then?.();
      return;
    }
    const first = this.waiting.length === 0;
    this.waiting.push({ write, then });
    if (!first) this.drain();
  }

  /** Writes now or not at all (false): what must be on disk before a call may leave. */
  writeNow(write: () => void): boolean {
    if (this.waiting.length > 0 && !this.drain()) return false;
    return this.run(write);
  }

  /** The disk trouble that still holds, trying the waiting writes again (at most every 200 ms). */
  trouble(): DiskTrouble | undefined {
    if (this.problem === undefined) return undefined;
    if (performance.now() - this.triedAt >= REQUEST_RETRY_MS) this.retry();
    return this.problem;
  }

  /** Writes what waits and syncs every file; the queue keeps working afterwards. */
  async flush(): Promise<void> {
    this.drain();
    await Promise.all([...this.files].map((file) => file.sync().catch((error: unknown) => this.fail(error))));
  }

  async close(): Promise<void> {
    clearInterval(this.syncTimer);
    if (this.retryTimer) clearInterval(this.retryTimer);
    await this.flush();
  }

  /** Waiting writes (for tests and the log). */
  get backlog(): number {
    return this.waiting.length;
  }

  private run(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** Runs waiting writes in order until one fails; true when none is left. */
  private drain(): boolean {
    while (this.waiting.length > 0) {
      const next = this.waiting[0] as PendingWrite;
      if (!this.run(next.write)) return false;
      this.waiting.shift();
      next.then?.();
    }
    return true;
  }

  private retry(): void {
    this.triedAt = performance.now();
    if (!this.drain()) return;
    // The probe: room for the headroom again means room for new calls.
    if (this.headroom !== undefined && !this.headroom.ensure()) return;
    const was = this.problem;
    this.problem = undefined;
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    if (was) this.log?.(`writes to ${this.dir} succeed again: new calls are accepted`);
  }

  private fail(error: unknown): void {
    const code = errorCode(error);
    const first = this.problem === undefined;
    const reason = code === 'ENOSPC' || code === 'SQLITE_FULL' ? 'no space left on the device' : error instanceof Error ? error.message.replace(/^[A-Z]+: /, '') : String(error);
    this.problem = { code, message: `isobudget gateway: cannot write to its data dir ${this.dir} (${code}: ${reason}); new calls are refused until writes succeed again` };
    this.triedAt = performance.now();
    if (first) {
      this.log?.(this.problem.message);
      this.retryTimer = setInterval(() => this.retry(), RETRY_EVERY_MS);
      this.retryTimer.unref();
      // The calls in flight may bill: give back the spare room so their records land now.
      if (SPACE_ERRORS.has(code) && this.headroom?.release()) queueMicrotask(() => this.drain());
    }
  }

  private syncAll(): void {
    for (const file of this.files) file.sync().catch((error: unknown) => this.fail(error));
  }
}

function errorCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'EIO';
}
