/**
 * The `pricing:` block of an experiment, and the whole of a `--pricing FILE`: model name →
 * USD per million tokens. Strict keys, so a typo (`cache_input`) is an error with a
 * "did you mean", not a silently ignored price.
 */
import { z } from 'zod';

const usdPerMillion = (what: string) => z.number().min(0).meta({ description: `USD per million ${what} tokens, e.g. 2.5.` });

export const modelPriceSchema = z.strictObject({
  input: usdPerMillion('uncached prompt'),
  cached_input: usdPerMillion('cached prompt (cache hits)').optional().meta({ description: 'USD per million prompt tokens served from the cache; default: the `input` price.' }),
  output: usdPerMillion('completion (reasoning included)'),
});

export const PRICING_HELP = 'Prices per model, USD per million tokens: `model-name: { input: 2.5, cached_input: 0.25, output: 15 }`. Overrides the dated default table for these models; `--pricing FILE` overrides both. Budgets stay in tokens: money is shown beside them.';

export const pricingSchema = z.record(z.string().min(1), modelPriceSchema).meta({ description: PRICING_HELP });

export type RawPricing = z.infer<typeof pricingSchema>;
