/** Why a path stopped, unified across protocols; `raw` keeps the provider's own word. */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool_calls' | 'budget_exhausted' | 'error';

export interface FinishReason {
  unified: UnifiedFinishReason;
  raw: string | undefined;
}

export function finishReason(unified: UnifiedFinishReason, raw?: string | null): FinishReason {
  return { unified, raw: raw ?? undefined };
}
