import { finishReason, type FinishReason } from '../../core/finish-reason.js';

/**
 * OpenAI chat `finish_reason` → unified. `content_filter` is an error, not a stop: the text
 * was cut by the provider, so the path must not be scored as a clean answer. A missing or
 * unknown reason is an error too (raw kept), never a guessed `stop`.
 */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return finishReason('stop', raw);
    case 'length':
      return finishReason('length', raw);
    case 'tool_calls':
    case 'function_call':
      return finishReason('tool_calls', raw);
    default:
      return finishReason('error', raw);
  }
}
