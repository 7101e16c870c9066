/** `pricing:` as written (snake_case) → model prices. */
import type { ModelPrice } from '../pricing/price-table.js';
import type { RawPricing } from './pricing-schema.js';

export function normalizePricing(raw: RawPricing): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(raw)) out[model] = { input: price.input, cachedInput: price.cached_input, output: price.output };
  return out;
}
