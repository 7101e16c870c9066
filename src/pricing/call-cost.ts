/**
 * What one call cost, pure: uncached prompt × input + cached prompt × cached input +
 * completion × output, per million tokens. Unknown stays unknown: no price for the model,
 * or a prompt or completion count the provider did not report, gives null — never 0.
 *
 * Cache writes (Anthropic's cache_creation_input_tokens, 1.25× input) are inside the prompt
 * count and priced as input, so a run that writes caches is slightly under-priced; reads are
 * `cached_tokens` and priced at `cachedInput`.
 */
import { findPrice, type PriceTable } from './price-table.js';

export interface BilledTokens {
  model: string;
  /** Prompt tokens billed, cache reads and writes included (tokens). */
  prompt_tokens: number | undefined;
  /** Of which served from a cache (tokens); undefined: the provider did not say (priced as uncached). */
  cached_tokens: number | undefined;
  /** Completion tokens billed, reasoning included (tokens). */
  completion_tokens: number | undefined;
}

const PER_MILLION = 1_000_000;

export function callCostUsd(call: BilledTokens, table: PriceTable): number | null {
  const price = findPrice(table, call.model);
  const prompt = call.prompt_tokens;
  const completion = call.completion_tokens;
  if (!price || !isCount(prompt) || !isCount(completion)) return null;
  const cached = isCount(call.cached_tokens) ? Math.min(call.cached_tokens, prompt) : 0;
  const cachedRate = price.cachedInput ?? price.input;
  return ((prompt - cached) * price.input + cached * cachedRate + completion * price.output) / PER_MILLION;
}

function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
