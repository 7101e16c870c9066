import { finishReason, type FinishReason } from '../../core/finish-reason.js';

/**
 * Responses API `status` (+ `incomplete_details.reason`) → unified. The raw word kept is the
 * most specific one the server gave: the incomplete reason when there is one, else the status.
 * A completed response that asked for function calls stops on `tool_calls`, like chat.
 */
export function mapResponsesFinishReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasFunctionCalls: boolean,
): FinishReason {
  if (status === 'completed') return finishReason(hasFunctionCalls ? 'tool_calls' : 'stop', status);
  if (status === 'incomplete') {
    return finishReason(incompleteReason === 'max_output_tokens' ? 'length' : 'error', incompleteReason ?? status);
  }
  // failed, cancelled, and in_progress/queued (a background response we did not ask for).
  return finishReason('error', status);
}
