/**
 * `rate_limit` for a whole distributed run, not per worker. The run's next free request slot
 * and its tokens-per-minute bucket are one row in Postgres, each taken with one atomic UPDATE
 * (the row lock orders the workers), so N workers together keep the config's rates. A 429 with
 * `retry-after` pushes `paused_until` forward: every worker of the run waits it out.
 */
import type { Database } from '../db/spec.js';
import { sleep } from '../runner/pool.js';
import type { RequestLimiter } from '../runner/unit-context.js';

/** Slots one request takes at most when it keeps waking up too late for them. */
const MAX_SLOTS = 4;

export interface SharedLimits {
  /** Requests per second (undefined: not limited). */
  requestsPerSecond: number | undefined;
  /** Tokens per minute (undefined: not limited). */
  tokensPerMinute: number | undefined;
}

export class SharedRateLimiter implements RequestLimiter {
  private ready: Promise<unknown> | undefined;

  constructor(private readonly db: Database, private readonly runId: string, private readonly limits: SharedLimits) {}

  async wait(signal?: AbortSignal, tokens?: number): Promise<void> {
    this.ready ??= this.db.query('INSERT INTO rate_limits (run_id, tokens_available) VALUES ($1, $2) ON CONFLICT DO NOTHING', [this.runId, this.limits.tokensPerMinute ?? 0]);
    await this.ready;
    // Paced or not, a request never starts inside a pause another worker's 429 set — also one
    // that was set while this request slept toward its slot: then it takes a fresh slot after it.
    const interval = this.limits.requestsPerSecond === undefined ? 0 : 1 / this.limits.requestsPerSecond;
    for (let taken = 1; ; taken += 1) {
      // The slot is no earlier than `asked + delay` on this clock (the UPDATE ran after `asked`).
      const asked = performance.now();
      const delay = await this.slot(interval);
      if (delay > 0) await sleep(delay, signal);
      // A process stalled past its slot (a loaded CPU: every lane's timer fires at once, or the
      // answer is read late) would start on a slot the next ones already follow closely: take a
      // fresh slot instead — a few times at most, a starved process cannot do better.
      if (performance.now() - (asked + Math.max(0, delay)) > (interval * 1000) / 2 && taken < MAX_SLOTS) continue;
      // delay ≤ 0: the slot was taken after any pause then set (the UPDATE reads paused_until): go now.
      if (delay <= 0) break;
      const paused = (await this.db.query<{ wait_ms: number }>('SELECT (EXTRACT(EPOCH FROM (paused_until - clock_timestamp())) * 1000)::float8 AS wait_ms FROM rate_limits WHERE run_id = $1', [this.runId])).rows[0]?.wait_ms ?? 0;
      if (paused <= 0) break;
      await sleep(paused, signal);
    }
    const perMinute = this.limits.tokensPerMinute;
    if (perMinute === undefined || tokens === undefined) return;
    const bucket = await this.db.query<{ available: number }>(
      `UPDATE rate_limits SET
         tokens_available = LEAST($2::float8, tokens_available + EXTRACT(EPOCH FROM (clock_timestamp() - tokens_refilled_at)) * $2::float8 / 60) - $3::float8,
         tokens_refilled_at = clock_timestamp()
       WHERE run_id = $1 RETURNING tokens_available::float8 AS available`,
      [this.runId, perMinute, tokens],
    );
    const available = bucket.rows[0]?.available ?? 0;
    if (available < 0) await sleep((-available / perMinute) * 60_000, signal);
  }

  /** Takes the run's next request slot; returns how long to wait for it (ms). Unpaced: only a pause delays. */
  private async slot(interval: number): Promise<number> {
    if (interval === 0) {
      return (await this.db.query<{ wait_ms: number }>('SELECT (EXTRACT(EPOCH FROM (paused_until - clock_timestamp())) * 1000)::float8 AS wait_ms FROM rate_limits WHERE run_id = $1', [this.runId])).rows[0]?.wait_ms ?? 0;
    }
    const { rows } = await this.db.query<{ wait_ms: number }>(
      `UPDATE rate_limits SET next_request_at = GREATEST(next_request_at, clock_timestamp(), paused_until) + make_interval(secs => $2)
       WHERE run_id = $1
       RETURNING (EXTRACT(EPOCH FROM (next_request_at - make_interval(secs => $2) - clock_timestamp())) * 1000)::float8 AS wait_ms`,
      [this.runId, interval],
    );
    return rows[0]?.wait_ms ?? 0;
  }

  /** The provider said 429, retry after `ms`: no worker of this run starts a request before then. */
  async pause(ms: number): Promise<void> {
    await this.db.query(`UPDATE rate_limits SET paused_until = GREATEST(paused_until, clock_timestamp() + make_interval(secs => $2)) WHERE run_id = $1`, [this.runId, ms / 1000]);
  }
}
