/**
 * Prices per model and the lookup that finds a model's price, pure. Prices are USD per
 * million tokens, as vendors publish them. A table is built in layers — the dated default
 * table, then the config's `pricing:` block, then `--pricing FILE` — each overriding whole
 * model entries of the one before.
 */

/** One model's price (USD per million tokens). */
export interface ModelPrice {
  /** Uncached prompt tokens (USD / 1M tokens). */
  input: number;
  /** Prompt tokens served from the provider's cache (USD / 1M tokens); undefined: billed as `input`. */
  cachedInput: number | undefined;
  /** Completion tokens, reasoning included (USD / 1M tokens). */
  output: number;
}

/** Where a price came from: `default` (the dated table), `config` (`pricing:`), or the file `--pricing` named. */
export type PriceSource = 'default' | 'config' | `file:${string}`;

export interface PricedModel extends ModelPrice {
  source: PriceSource;
}

export interface PriceTable {
  /** Exact model names → price. */
  models: Record<string, PricedModel>;
  /** Date of the default table the lower layer came from (YYYY-MM-DD), if it is used. */
  defaultDate: string | undefined;
}

export const EMPTY_PRICE_TABLE: PriceTable = Object.freeze({ models: Object.freeze({}), defaultDate: undefined }) as PriceTable;

/** `base` with `layer`'s models on top (whole entries replaced). */
export function withPrices(base: PriceTable, layer: Record<string, ModelPrice>, source: PriceSource): PriceTable {
  const models: Record<string, PricedModel> = { ...base.models };
  for (const [model, price] of Object.entries(layer)) models[model] = { ...price, source };
  return { models, defaultDate: base.defaultDate };
}

/** Dated snapshots (`gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`) carry their base model's price. */
const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The price of `model`: the exact name first, then without a router's `vendor/` prefix
 * (OpenRouter's `openai/gpt-5.4`), then without a date suffix, then with dots read as dashes
 * (`claude-sonnet-4.5` is `claude-sonnet-4-5`). No prefix matching beyond that: `gpt-5.4`
 * must never price `gpt-5.4-mini`. Own keys only: a model a client calls `constructor` must
 * not find Object.prototype's (its cost came out NaN); a record without a model has no price.
 */
export function findPrice(table: PriceTable, model: string): PricedModel | undefined {
  if (typeof model !== 'string') return undefined;
  const own = (name: string): PricedModel | undefined => (Object.hasOwn(table.models, name) ? table.models[name] : undefined);
  const exact = own(model);
  if (exact) return exact;
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const candidates = [bare, bare.replace(DATE_SUFFIX, '')];
  for (const name of [...candidates, ...candidates.map((c) => c.replace(/\./g, '-'))]) {
    const price = own(name) ?? own(name.toLowerCase());
    if (price) return price;
  }
  return undefined;
}
