import { describe, expect, test } from 'vitest';
import { buildPriceTable, defaultPriceTable } from './build-table.js';
import { callCostUsd } from './call-cost.js';
import { DEFAULT_PRICES_DATE } from './default-prices.js';
import { formatUsd, formatUsdSum } from './format-usd.js';
import { findPrice } from './price-table.js';

describe('prices', () => {
  const table = defaultPriceTable();

  test('lookup: exact, a router prefix, a dated snapshot, dots as dashes — never a longer name by prefix', () => {
    expect(table.defaultDate).toBe(DEFAULT_PRICES_DATE);
    expect(findPrice(table, 'gpt-5.4')?.input).toBe(2.5);
    expect(findPrice(table, 'openai/gpt-5.4-mini')?.input).toBe(0.75);
    expect(findPrice(table, 'claude-sonnet-4-5-20250929')?.output).toBe(15);
    expect(findPrice(table, 'anthropic/claude-sonnet-4.5')?.output).toBe(15);
    expect(findPrice(table, 'gpt-4.1-2025-04-14')?.input).toBe(2);
    expect(findPrice(table, 'gpt-5.4-turbo-preview')).toBeUndefined();
    expect(findPrice(table, 'sim-small')).toBeUndefined();
  });

  test('cost: uncached × input + cached × cached_input + completion × output, per million', () => {
    const priced = buildPriceTable({ config: { m: { input: 2, cachedInput: 0.5, output: 10 } } });
    expect(callCostUsd({ model: 'm', prompt_tokens: 1_000_000, cached_tokens: 400_000, completion_tokens: 100_000 }, priced)).toBeCloseTo(1.2 + 0.2 + 1, 12);
    // No cache price: cached tokens cost the input price. Unknown cache: all uncached.
    const flat = buildPriceTable({ config: { m: { input: 2, cachedInput: undefined, output: 10 } } });
    expect(callCostUsd({ model: 'm', prompt_tokens: 1_000_000, cached_tokens: 400_000, completion_tokens: 0 }, flat)).toBeCloseTo(2, 12);
    expect(callCostUsd({ model: 'm', prompt_tokens: 1_000_000, cached_tokens: undefined, completion_tokens: 0 }, priced)).toBeCloseTo(2, 12);
  });

  test('unknown is null, never 0: no price, or no usage', () => {
    expect(callCostUsd({ model: 'sim-small', prompt_tokens: 10, cached_tokens: 0, completion_tokens: 10 }, table)).toBeNull();
    expect(callCostUsd({ model: 'gpt-5.4', prompt_tokens: undefined, cached_tokens: undefined, completion_tokens: 10 }, table)).toBeNull();
    expect(callCostUsd({ model: 'gpt-5.4', prompt_tokens: 10, cached_tokens: undefined, completion_tokens: undefined }, table)).toBeNull();
  });

  test('a model a client names `constructor` or `__proto__`, or none at all, has no price (it was NaN, or a crash)', () => {
    for (const model of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'openai/constructor', 'valueOf-20250101']) {
      expect(findPrice(table, model), model).toBeUndefined();
      expect(callCostUsd({ model, prompt_tokens: 10, cached_tokens: 0, completion_tokens: 10 }, table), model).toBeNull();
    }
    // A call record from a foreign ledger may lack `model`.
    const noModel = JSON.parse('{"prompt_tokens": 10, "cached_tokens": 0, "completion_tokens": 10}') as Parameters<typeof callCostUsd>[0];
    expect(callCostUsd(noModel, table)).toBeNull();
  });

  test('layers: the config over the defaults, a file over both', () => {
    const layered = buildPriceTable({ config: { 'gpt-5.4': { input: 1, cachedInput: undefined, output: 1 } }, file: { path: '/p.yaml', prices: { 'gpt-5.4': { input: 9, cachedInput: undefined, output: 9 } } } });
    expect(findPrice(layered, 'gpt-5.4')).toMatchObject({ input: 9, source: 'file:/p.yaml' });
    expect(findPrice(layered, 'gpt-5.5')).toMatchObject({ input: 5, source: 'default' });
  });

  test('format: cents from a dollar up, four decimals below; ≥ marks a sum that leaves units out', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.00423)).toBe('$0.0042');
    expect(formatUsd(null)).toBe('unknown');
    expect(formatUsdSum(2, 3)).toBe('≥$2.00');
    expect(formatUsdSum(null, 3)).toBe('unknown');
  });
});
