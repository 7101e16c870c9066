/**
 * Usage an upstream reports, judged before it is booked, pure (issue 20 item 6). A buggy or
 * hostile upstream can send usage that would credit a key or book less than it billed:
 * - a token count that is negative, fractional or not finite makes the whole usage unknown
 *   (the call is then booked at its reservation, never credited);
 * - a total below its parts is raised to input + output (the parts are what was billed);
 * - in a stream, usage fields are cumulative (Anthropic's `message_delta`, chat chunks from
 *   routers that repeat usage): the largest value of each field seen wins, so a trailing zero
 *   event cannot undo the real count.
 *
 * Token fields are those named `*_tokens`, at any depth of the usage object (details, cache
 * breakdowns); other numbers (OpenRouter's `cost`) are not token counts and are not judged.
 *
 * The rule on mapped counts is the runs' own (src/core/usage-sanity.ts); this file adds what only
 * a relay sees: the upstream's raw usage object at any depth, and cumulative stream events.
 */
import { isTokenCount, saneUsage as saneCounts } from '../../core/usage-sanity.js';
import { UNKNOWN_USAGE, type Usage } from '../../core/usage.js';

type UsageRecord = Record<string, unknown>;

/** Deepest nesting of usage details looked into. */
const MAX_DEPTH = 4;

/** True when every `*_tokens` number in the usage object (any depth) is a non-negative safe integer. */
export function usageRecordIsSane(usage: unknown, depth = 0): boolean {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return true;
  for (const name in usage as UsageRecord) {
    const value = (usage as UsageRecord)[name];
    if (typeof value === 'number') {
      if (name.endsWith('_tokens') && !isTokenCount(value)) return false;
    } else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH && !usageRecordIsSane(value, depth + 1)) return false;
  }
  return true;
}

/**
 * Mapped usage made safe to book: unknown when `raw` (the upstream's usage object) holds an
 * impossible token count or the mapped fields are impossible; the total at least its parts.
 */
export function saneUsage(raw: unknown, mapped: Usage): Usage {
  return usageRecordIsSane(raw) ? saneCounts(mapped) : { ...UNKNOWN_USAGE };
}

/**
 * Folds one more cumulative usage object of a stream into `into`: each number becomes the
 * larger of the two (nested objects field by field); a field that is not a number replaces
 * nothing. Returns false when `next` holds an impossible token count (the caller marks the
 * stream's usage unknown).
 */
export function mergeCumulativeUsage(into: UsageRecord, next: unknown, depth = 0): boolean {
  if (typeof next !== 'object' || next === null || Array.isArray(next)) return true;
  if (depth === 0 && !usageRecordIsSane(next)) return false;
  for (const name in next as UsageRecord) {
    const value = (next as UsageRecord)[name];
    if (value === null || value === undefined) continue;
    const held = into[name];
    if (typeof value === 'number') {
      into[name] = typeof held === 'number' ? Math.max(held, value) : value;
    } else if (typeof value === 'object' && !Array.isArray(value) && depth < MAX_DEPTH) {
      const nested = typeof held === 'object' && held !== null && !Array.isArray(held) ? (held as UsageRecord) : {};
      into[name] = nested;
      mergeCumulativeUsage(nested, value, depth + 1);
    } else if (held === undefined) {
      into[name] = value;
    }
  }
  return true;
}
