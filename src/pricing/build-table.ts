/** The price table of a run or a command: the dated defaults, then the config, then `--pricing FILE`. */
import { DEFAULT_PRICES, DEFAULT_PRICES_DATE } from './default-prices.js';
import { EMPTY_PRICE_TABLE, withPrices, type ModelPrice, type PriceTable } from './price-table.js';

export interface PriceLayers {
  /** The experiment's `pricing:` block. */
  config?: Record<string, ModelPrice> | undefined;
  /** `--pricing FILE`: its path (for provenance) and prices. */
  file?: { path: string; prices: Record<string, ModelPrice> } | undefined;
}

export function defaultPriceTable(): PriceTable {
  return { ...withPrices(EMPTY_PRICE_TABLE, DEFAULT_PRICES, 'default'), defaultDate: DEFAULT_PRICES_DATE };
}

export function buildPriceTable(layers: PriceLayers = {}): PriceTable {
  let table = defaultPriceTable();
  if (layers.config) table = withPrices(table, layers.config, 'config');
  if (layers.file) table = withPrices(table, layers.file.prices, `file:${layers.file.path}`);
  return table;
}
