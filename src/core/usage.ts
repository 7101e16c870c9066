/**
 * Token usage of one model call, normalized across protocols.
 *
 * Unknown is not zero (DESIGN §1, invariant 2): a field the provider did not report is
 * `undefined`, never 0, so the analysis can count calls that lacked usage.
 */
export interface Usage {
  /** Prompt tokens billed, including cache reads and cache writes (tokens). */
  inputTokens: number | undefined;
  /** Completion tokens billed, including reasoning tokens (tokens). */
  outputTokens: number | undefined;
  /** inputTokens + outputTokens as billed, or the provider's own total (tokens). */
  totalTokens: number | undefined;
  /** Prompt tokens served from a cache, where reported (tokens). */
  cachedTokens: number | undefined;
  /** Hidden reasoning tokens inside outputTokens, where reported (tokens). */
  reasoningTokens: number | undefined;
}

export const UNKNOWN_USAGE: Usage = Object.freeze({
  inputTokens: undefined,
  outputTokens: undefined,
  totalTokens: undefined,
  cachedTokens: undefined,
  reasoningTokens: undefined,
});

/** Total from parts when the provider gives no total; unknown when either part is unknown. */
export function makeUsage(parts: Partial<Usage>): Usage {
  const inputTokens = parts.inputTokens;
  const outputTokens = parts.outputTokens;
  const totalTokens =
    parts.totalTokens ??
    (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined);
  return {
    inputTokens,
    outputTokens,
    totalTokens,
    cachedTokens: parts.cachedTokens,
    reasoningTokens: parts.reasoningTokens,
  };
}

export function usageIsKnown(usage: Usage): boolean {
  return usage.totalTokens !== undefined;
}
