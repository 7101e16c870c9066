import { UNKNOWN_USAGE, makeUsage, type Usage } from '../../core/usage.js';
import { isRecord, readNumber, readRecord } from '../json-fields.js';

/** Responses API `usage` → Usage; absent fields stay undefined (unknown is not zero). */
export function mapResponsesUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { ...UNKNOWN_USAGE };
  return makeUsage({
    inputTokens: readNumber(usage, 'input_tokens'),
    outputTokens: readNumber(usage, 'output_tokens'),
    totalTokens: readNumber(usage, 'total_tokens'),
    cachedTokens: readNumber(readRecord(usage, 'input_tokens_details'), 'cached_tokens'),
    reasoningTokens: readNumber(readRecord(usage, 'output_tokens_details'), 'reasoning_tokens'),
  });
}
