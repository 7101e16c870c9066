/**
 * Calls in flight per key. A run's executor waits for a path's key to go idle after the
 * agent exits, so the last call's record (written as its response ends) is never missed.
 */
export class InFlight {
  private readonly counts = new Map<string, number>();
  private readonly idleWaiters = new Map<string, Array<() => void>>();

  enter(keyId: string): () => void {
    this.counts.set(keyId, (this.counts.get(keyId) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.counts.get(keyId) ?? 1) - 1;
      if (count > 0) {
        this.counts.set(keyId, count);
        return;
      }
      this.counts.delete(keyId);
      for (const resolve of this.idleWaiters.get(keyId) ?? []) resolve();
      this.idleWaiters.delete(keyId);
    };
  }

  count(keyId?: string): number {
    if (keyId !== undefined) return this.counts.get(keyId) ?? 0;
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /** Resolves once no call of the key is in flight, or after `timeoutMs`. */
  idle(keyId: string, timeoutMs: number): Promise<void> {
    if (!this.counts.has(keyId)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      const list = this.idleWaiters.get(keyId) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.idleWaiters.set(keyId, list);
    });
  }
}
