import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { hasBadCount, saneUsage } from '../../core/usage-sanity.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/**
 * Responses API `usage` → Usage; absent fields stay undefined (unknown is not zero), and a
 * count that is not a non-negative integer makes the whole usage unknown (core/usage-sanity.ts).
 */
export function mapResponsesUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  const inputDetails = readRecord(usage, 'input_tokens_details');
  const outputDetails = readRecord(usage, 'output_tokens_details');
  if (hasBadCount(usage, ['input_tokens', 'output_tokens', 'total_tokens']) || hasBadCount(inputDetails, ['cached_tokens']) || hasBadCount(outputDetails, ['reasoning_tokens'])) {
    return { ...UNKNOWN_USAGE };
  }
  return saneUsage(
    makeUsage({
      inputTokens: readNumber(usage, 'input_tokens'),
      outputTokens: readNumber(usage, 'output_tokens'),
      totalTokens: readNumber(usage, 'total_tokens'),
      cachedTokens: readNumber(inputDetails, 'cached_tokens'),
      reasoningTokens: readNumber(outputDetails, 'reasoning_tokens'),
    }),
  );
}
