/**
 * `rate_limit` for a whole distributed run, not per worker: the next free request slot of the
 * run is one row in Postgres, taken with one atomic UPDATE (the row lock orders the workers),
 * so N workers together start at most `requests_per_second` requests per second. A 429 with
 * `retry-after` pushes `paused_until` forward: every worker of the run waits it out.
 */
import type { Database } from '../db/spec.js';
import { sleep } from '../runner/pool.js';

export class SharedRateLimiter {
  private readonly intervalSeconds: number;
  private ready: Promise<unknown> | undefined;

  constructor(private readonly db: Database, private readonly runId: string, perSecond: number) {
    this.intervalSeconds = 1 / perSecond;
  }

  async wait(signal?: AbortSignal): Promise<void> {
    this.ready ??= this.db.query('INSERT INTO rate_limits (run_id) VALUES ($1) ON CONFLICT DO NOTHING', [this.runId]);
    await this.ready;
    const { rows } = await this.db.query<{ wait_ms: number }>(
      `UPDATE rate_limits SET next_request_at = GREATEST(next_request_at, clock_timestamp(), paused_until) + make_interval(secs => $2)
       WHERE run_id = $1
       RETURNING (EXTRACT(EPOCH FROM (next_request_at - make_interval(secs => $2) - clock_timestamp())) * 1000)::float8 AS wait_ms`,
      [this.runId, this.intervalSeconds],
    );
    const delay = rows[0]?.wait_ms ?? 0;
    if (delay > 0) await sleep(delay, signal);
  }

  /** The provider said 429, retry after `ms`: no worker of this run starts a request before then. */
  async pause(ms: number): Promise<void> {
    await this.db.query(`UPDATE rate_limits SET paused_until = GREATEST(paused_until, clock_timestamp() + make_interval(secs => $2)) WHERE run_id = $1`, [this.runId, ms / 1000]);
  }
}
