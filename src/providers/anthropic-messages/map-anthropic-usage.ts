import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { hasBadCount, saneUsage } from '../../core/usage-sanity.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/**
 * Anthropic `usage` → Usage. Anthropic reports `input_tokens` *excluding* cache reads and
 * cache writes, all three billed, so the prompt we count is their sum (DESIGN §4).
 *
 * The cache fields are null or absent when caching was not involved; they count as 0 only
 * when `input_tokens` itself is present. Without `input_tokens` the input is unknown, not
 * "just the cache part". `cachedTokens` stays undefined when the server did not say.
 * A count that is not a non-negative integer makes the whole usage unknown: a negative cache
 * field must not lower the prompt (core/usage-sanity.ts).
 */
export function mapAnthropicUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  const outputDetails = readRecord(usage, 'output_tokens_details');
  if (hasBadCount(usage, ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens']) || hasBadCount(outputDetails, ['thinking_tokens'])) {
    return { ...UNKNOWN_USAGE };
  }
  const uncached = readNumber(usage, 'input_tokens');
  const cacheWrite = readNumber(usage, 'cache_creation_input_tokens');
  const cacheRead = readNumber(usage, 'cache_read_input_tokens');
  return saneUsage(
    makeUsage({
      inputTokens: uncached === undefined ? undefined : uncached + (cacheWrite ?? 0) + (cacheRead ?? 0),
      outputTokens: readNumber(usage, 'output_tokens'),
      cachedTokens: cacheRead,
      reasoningTokens: readNumber(outputDetails, 'thinking_tokens'),
    }),
  );
}
