import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { hasBadCount, saneUsage } from '../../core/usage-sanity.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/**
 * OpenAI chat `usage` → Usage. With native `n` this one usage covers every choice.
 * A missing usage object, or a missing field, stays undefined (unknown is not zero); a count
 * that is not a non-negative integer makes the whole usage unknown (core/usage-sanity.ts).
 */
export function mapOpenAIUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  const promptDetails = readRecord(usage, 'prompt_tokens_details');
  const completionDetails = readRecord(usage, 'completion_tokens_details');
  if (hasBadCount(usage, ['prompt_tokens', 'completion_tokens', 'total_tokens']) || hasBadCount(promptDetails, ['cached_tokens']) || hasBadCount(completionDetails, ['reasoning_tokens'])) {
    return { ...UNKNOWN_USAGE };
  }
  return saneUsage(
    makeUsage({
      inputTokens: readNumber(usage, 'prompt_tokens'),
      outputTokens: readNumber(usage, 'completion_tokens'),
      totalTokens: readNumber(usage, 'total_tokens'),
      cachedTokens: readNumber(promptDetails, 'cached_tokens'),
      reasoningTokens: readNumber(completionDetails, 'reasoning_tokens'),
    }),
  );
}
