import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/**
 * Anthropic `usage` → Usage. Anthropic reports `input_tokens` *excluding* cache reads and
 * cache writes, all three billed, so the prompt we count is their sum (DESIGN §4).
 *
 * The cache fields are null or absent when caching was not involved; they count as 0 only
 * when `input_tokens` itself is present. Without `input_tokens` the input is unknown, not
 * "just the cache part". `cachedTokens` stays undefined when the server did not say.
 */
export function mapAnthropicUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  const uncached = readNumber(usage, 'input_tokens');
  const cacheWrite = readNumber(usage, 'cache_creation_input_tokens');
  const cacheRead = readNumber(usage, 'cache_read_input_tokens');
  return makeUsage({
    inputTokens: uncached === undefined ? undefined : uncached + (cacheWrite ?? 0) + (cacheRead ?? 0),
    outputTokens: readNumber(usage, 'output_tokens'),
    cachedTokens: cacheRead,
    reasoningTokens: readNumber(readRecord(usage, 'output_tokens_details'), 'thinking_tokens'),
  });
}
