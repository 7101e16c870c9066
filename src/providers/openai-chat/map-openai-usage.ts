import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/**
 * OpenAI chat `usage` → Usage. With native `n` this one usage covers every choice.
 * A missing usage object, or a missing field, stays undefined (unknown is not zero).
 */
export function mapOpenAIUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  return makeUsage({
    inputTokens: readNumber(usage, 'prompt_tokens'),
    outputTokens: readNumber(usage, 'completion_tokens'),
    totalTokens: readNumber(usage, 'total_tokens'),
    cachedTokens: readNumber(readRecord(usage, 'prompt_tokens_details'), 'cached_tokens'),
    reasoningTokens: readNumber(readRecord(usage, 'completion_tokens_details'), 'reasoning_tokens'),
  });
}
