/**
 * Calls waiting for a key's budget on a replica. Reservations held elsewhere settle on other
 * replicas, which say nothing to this one, so a waiter looks again after a backoff — 10 ms,
 * doubling to 250 ms, with jitter, so a crowd of waiters does not poll in step — or at once
 * when a call of the key settles here.
 */
export class KeyWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(private readonly firstMs = 10, private readonly maxMs = 250) {}

  /** Resolves on the next local change of the key, after the `attempt`-th backoff, at the deadline or when the client goes. */
  next(keyId: string, deadline: number, signal: AbortSignal, attempt: number): Promise<void> {
    const backoff = Math.min(this.maxMs, this.firstMs * 2 ** Math.min(attempt, 8)) * (0.5 + Math.random());
    return new Promise((resolve) => {
      const set = this.waiting.get(keyId) ?? new Set<() => void>();
      this.waiting.set(keyId, set);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0) this.waiting.delete(keyId);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(backoff, deadline - Date.now())));
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  wake(keyId: string): void {
    const set = this.waiting.get(keyId);
    if (set) for (const done of [...set]) done();
  }
}
