/**
 * The one prompt estimator runs and the gateway share. Three sources, best first:
 * - exact: the upstream bills with our tokenizer (the simulator in process) — the count itself;
 * - counted by the provider: Anthropic's `count_tokens` (runs, through the official SDK),
 *   cached per prompt hash — that count plus COUNTED_MARGIN;
 * - learned: our o200k count × the worst billed/counted ratio seen for (base URL, model),
 *   plus a margin, seeded conservatively (billing-ratios.ts) — plus PROMPT_OVERHEAD.
 * Every estimate says which factor it used, so the ledger can show it (`estimate_ratio`).
 */
import { type BillingRatios, PROMPT_OVERHEAD, type RatioTarget } from './billing-ratios.js';

/** Anthropic documents count_tokens as an estimate that may differ slightly from the bill. */
export const COUNTED_MARGIN = 0.02;

export interface PromptEstimate {
  /** Prompt tokens to reserve (tokens). */
  tokens: number;
  /** Our o200k count of the prompt (tokens): what the ratio is learned against. */
  counted: number;
  /** Factor applied to `counted`: 1 when exact; undefined when the provider counted. */
  ratio: number | undefined;
  source: 'exact' | 'provider_count' | 'learned_ratio';
  /** Tokens reserved outside the ratio (images, a continued response), included in `tokens`. */
  extra?: number;
}

export class PromptEstimator {
  constructor(
    private readonly ratios: BillingRatios,
    /** The upstream bills with our tokenizer. */
    private readonly exact: boolean,
  ) {}

  /**
   * The estimate from our own count; `extra` is billed input reserved as is, outside the ratio
   * (images by their formulas, a continued response's bill). A call with extra teaches no ratio:
   * its bill cannot be split into what the text and what the rest cost.
   */
  fromCount(target: RatioTarget, counted: number, extra = 0): PromptEstimate {
    if (this.exact) return { tokens: counted + extra, counted, ratio: 1, source: 'exact', extra };
    const ratio = this.ratios.factor(target);
    return { tokens: Math.ceil(counted * ratio) + PROMPT_OVERHEAD + extra, counted, ratio, source: 'learned_ratio', extra };
  }

  /** The estimate from the provider's own count of the prompt. */
  fromProviderCount(counted: number, providerCount: number): PromptEstimate {
    return { tokens: Math.ceil(providerCount * (1 + COUNTED_MARGIN)), counted, ratio: undefined, source: 'provider_count' };
  }

  /** A settled call: learns its billed/counted ratio (nothing to learn when exact). */
  settle(target: RatioTarget, estimate: PromptEstimate, billedPrompt: number | undefined): void {
    if (estimate.source === 'learned_ratio' && (estimate.extra ?? 0) === 0) this.ratios.observe(target, estimate.counted, billedPrompt);
  }

  factor(target: RatioTarget): number {
    return this.exact ? 1 : this.ratios.factor(target);
  }
}
