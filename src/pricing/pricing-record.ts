/**
 * The price table a run used, as the manifest keeps it: so the run's costs can be read
 * later with the prices they were computed with, and a resumed run keeps them.
 */
import type { PriceSource, PriceTable } from './price-table.js';

export interface PricingRecord {
  /** Date of the default table under the others (YYYY-MM-DD); null when none was used. */
  default_date: string | null;
  /** Model → USD per million tokens, and where each price came from. */
  models: Record<string, { input: number; cached_input: number | null; output: number; source: PriceSource }>;
}

export function toPricingRecord(table: PriceTable): PricingRecord {
  const models: PricingRecord['models'] = {};
  for (const [model, p] of Object.entries(table.models)) models[model] = { input: p.input, cached_input: p.cachedInput ?? null, output: p.output, source: p.source };
  return { default_date: table.defaultDate ?? null, models };
}

export function fromPricingRecord(record: PricingRecord): PriceTable {
  const models: PriceTable['models'] = {};
  for (const [model, p] of Object.entries(record.models)) models[model] = { input: p.input, cachedInput: p.cached_input ?? undefined, output: p.output, source: p.source };
  return { models, defaultDate: record.default_date ?? undefined };
}

/** One line for the terminal and the report: which layers priced this run. */
export function describePricing(record: PricingRecord | undefined): string {
  if (!record) return 'no prices recorded (the run predates prices)';
  const sources = new Set(Object.values(record.models).map((m) => m.source));
  const parts: string[] = [];
  if (record.default_date !== null) parts.push(`default table of ${record.default_date}`);
  if (sources.has('config')) parts.push('the config\'s pricing:');
  for (const source of sources) if (source.startsWith('file:')) parts.push(source.slice('file:'.length));
  return parts.length === 0 ? 'no prices' : `prices: ${parts.join(' + ')} (USD per million tokens)`;
}
