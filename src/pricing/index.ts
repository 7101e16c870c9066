/** Prices and costs: what a model call cost in USD, beside the tokens budgets are kept in. */
export { callCostUsd, type BilledTokens } from './call-cost.js';
export { buildPriceTable, defaultPriceTable, type PriceLayers } from './build-table.js';
export { DEFAULT_PRICES, DEFAULT_PRICES_DATE } from './default-prices.js';
export { formatUsd, formatUsdSum } from './format-usd.js';
export { EMPTY_PRICE_TABLE, findPrice, withPrices, type ModelPrice, type PriceSource, type PriceTable, type PricedModel } from './price-table.js';
export { describePricing, fromPricingRecord, toPricingRecord, type PricingRecord } from './pricing-record.js';
