/**
 * `rate_limit.tokens_per_minute` in one process: a bucket of `perMinute` tokens refilled
 * continuously. A request takes its most (prompt estimate + max_tokens × paths) before it
 * leaves; when that overdraws the bucket it waits until the debt is refilled, so the rate
 * holds over any minute-long window however large single requests are.
 */
import { sleep } from './pool.js';

export class TokenBucket {
  private available: number;
  private refilledAt: number;
  private readonly perMs: number;

  constructor(private readonly perMinute: number, private readonly now: () => number = () => performance.now()) {
    this.available = perMinute;
    this.refilledAt = now();
    this.perMs = perMinute / 60_000;
  }

  async take(tokens: number, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    this.available = Math.min(this.perMinute, this.available + (now - this.refilledAt) * this.perMs) - tokens;
    this.refilledAt = now;
    if (this.available < 0) await sleep(-this.available / this.perMs, signal);
  }
}
