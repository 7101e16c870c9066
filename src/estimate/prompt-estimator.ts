/**
 * The one prompt estimator runs and the gateway share. Three sources, best first:
 * - exact: the upstream bills with our tokenizer (the simulator in process) — the count itself;
 * - counted by the provider: Anthropic's `count_tokens` (runs, through the official SDK),
 *   cached per prompt hash — that count plus COUNTED_MARGIN;
 * - learned: our o200k count of the billable content × the ratio learned for (base URL,
 *   model, body shape), never below the published bound until the key itself has settled
 *   enough similar calls (billing-ratios.ts) — plus the published overheads
 *   (published-overheads.ts: per-message framing, tool prompts, defined tools) and
 *   PROMPT_OVERHEAD.
 * Every estimate says which factor it used, so the ledger can show it (`estimate_ratio`).
 */
import { type BillingRatios, PROMPT_OVERHEAD, type RatioScope, type RatioTarget } from './billing-ratios.js';

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
  /** Published overhead reserved beyond the ratio (tokens), included in `tokens`. */
  overhead?: number;
  /** What a bill surely holds beyond the text (tokens): taken off the bill before the ratio is learned. */
  overheadFloor?: number;
  /** The shape and key the ratio was looked up for (and is learned for). */
  scope?: RatioScope;
}

/** The published overheads of a body and where its ratio is learned (billable-content.ts, body-shape.ts). */
export interface EstimateContext extends RatioScope {
  /** Tokens the published rules add beyond the text, at the most (tokens). */
  overhead?: number;
  /** The same at the least (tokens). */
  overheadFloor?: number;
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
  fromCount(target: RatioTarget, counted: number, extra = 0, context: EstimateContext = {}): PromptEstimate {
    const overhead = context.overhead ?? 0;
    if (this.exact) return { tokens: counted + extra + overhead, counted, ratio: 1, source: 'exact', extra };
    const scope: RatioScope = { shape: context.shape, keyId: context.keyId };
    const ratio = this.ratios.factor(target, scope);
    return {
      tokens: Math.ceil(counted * ratio) + PROMPT_OVERHEAD + overhead + extra,
      counted,
      ratio,
      source: 'learned_ratio',
      extra,
      overhead,
      overheadFloor: context.overheadFloor ?? 0,
      scope,
    };
  }

  /** The estimate from the provider's own count of the prompt. */
  fromProviderCount(counted: number, providerCount: number): PromptEstimate {
    return { tokens: Math.ceil(providerCount * (1 + COUNTED_MARGIN)), counted, ratio: undefined, source: 'provider_count' };
  }

  /** A settled call: learns its billed/counted ratio (nothing to learn when exact). */
  settle(target: RatioTarget, estimate: PromptEstimate, billedPrompt: number | undefined): void {
    if (estimate.source !== 'learned_ratio' || (estimate.extra ?? 0) !== 0 || billedPrompt === undefined) return;
    this.ratios.observe(target, estimate.scope ?? {}, estimate.counted, billedPrompt - (estimate.overheadFloor ?? 0));
  }

  factor(target: RatioTarget, scope?: RatioScope): number {
    return this.exact ? 1 : this.ratios.factor(target, scope);
  }
}
