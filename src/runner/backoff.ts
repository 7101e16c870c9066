/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And
 * Jitter", 2015): delay = random(0, min(max, initial × 2^(attempt−1))). A server's
 * Retry-After wins when present, capped at maxDelayMs so a hostile header cannot stall a run.
 */
export interface BackoffPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
}

export function backoffDelay(policy: BackoffPolicy, attempt: number, random: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(policy.maxDelayMs, Math.max(0, retryAfterMs));
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}
