/**
 * Usage taken with care, pure: one rule for runs, workers and the gateway (issue 20 item 6).
 * An upstream may be buggy or hostile; what it reports is booked only when it can be true:
 * - a count that is negative, fractional, not finite or not a number makes the whole usage
 *   unknown (the caller books its reservation), never a credit;
 * - the total is never below the sum of its parts: max(total, prompt + completion);
 * - in a stream whose usage is cumulative (Anthropic's `message_delta`), each count keeps the
 *   largest value seen, so a trailing event with 0 cannot lower what was billed (the gateway's
 *   stream observer: gateway/usage/usage-sanity.ts).
 */
import { UNKNOWN_USAGE, type Usage } from './usage.js';

/** A token count as a provider may report it: a non-negative integer. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * True when `record` reports one of `keys` (present and not null) as something other than a
 * token count: such a usage object is unknown as a whole, not just that field.
 */
export function hasBadCount(record: Record<string, unknown> | undefined, keys: readonly string[]): boolean {
  if (record === undefined) return false;
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined && value !== null && !isTokenCount(value)) return true;
  }
  return false;
}

/** Usage as it may be booked: unknown when any count is not a token count; total ≥ its parts. */
export function saneUsage(usage: Usage): Usage {
  const { inputTokens, outputTokens, totalTokens, cachedTokens, reasoningTokens } = usage;
  for (const value of [inputTokens, outputTokens, totalTokens, cachedTokens, reasoningTokens]) {
    if (value !== undefined && !isTokenCount(value)) return { ...UNKNOWN_USAGE };
  }
  const parts = inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined;
  const total = totalTokens === undefined ? parts : parts === undefined ? totalTokens : Math.max(totalTokens, parts);
  return { inputTokens, outputTokens, totalTokens: total, cachedTokens, reasoningTokens };
}
