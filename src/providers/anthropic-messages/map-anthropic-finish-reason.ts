import { finishReason, type FinishReason } from '../../core/finish-reason.js';

/**
 * Anthropic `stop_reason` → unified. `refusal`, `pause_turn` (a server tool loop we did not
 * finish), `model_context_window_exceeded` and anything unknown are errors with the raw word
 * kept, so the analysis can tell them apart.
 */
export function mapAnthropicFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return finishReason('stop', raw);
    case 'max_tokens':
      return finishReason('length', raw);
    case 'tool_use':
      return finishReason('tool_calls', raw);
    default:
      return finishReason('error', raw);
  }
}
