/**
 * A counting semaphore: at most `limit` model calls in flight across the whole run.
 * FIFO, so no case starves.
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.active -= 1;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}

/** Slots one request takes at most when it keeps waking up too late for them. */
const MAX_SLOTS = 4;

/**
 * Spaces request starts to at most `perSecond` per second. Each caller takes the next free
 * slot on a virtual timeline, so bursts queue instead of busy-waiting.
 */
export class RateLimiter {
  private nextSlot = 0;
  private readonly intervalMs: number;

  constructor(perSecond: number, private readonly now: () => number = () => performance.now()) {
    this.intervalMs = 1000 / perSecond;
  }

  async wait(signal?: AbortSignal): Promise<void> {
    for (let taken = 1; ; taken += 1) {
      const now = this.now();
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + this.intervalMs;
      const delay = slot - now;
      if (delay <= 0) return;
      await sleep(delay, signal);
      // A process stalled past its slot (a loaded CPU: every waiting lane's timer fires at once)
      // would start next to the following slot: take a fresh one — a few times at most.
      if (this.now() - slot <= this.intervalMs / 2 || taken >= MAX_SLOTS) return;
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
