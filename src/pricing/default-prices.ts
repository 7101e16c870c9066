/**
 * The default price table: the common models of the presets (openai, anthropic, deepseek;
 * openrouter names them `vendor/model` and is priced from the same rows). USD per million
 * tokens, standard tier, short context.
 *
 * DATE: 2026-12-01. Prices change: override them with `pricing:` in the experiment or
 * `--pricing FILE`, and check the sources below before you budget with them.
 *
 * Sources (as read on the date above):
 * - Anthropic: https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing":
 *   base input, cache hits, output). Sonnet 5 from GitHub's Copilot price table
 *   (github/docs data/tables/copilot/models-and-pricing.yml).
 * - OpenAI: https://developers.openai.com/api/docs/pricing, as quoted by GitHub's Copilot
 *   price table and by third-party summaries of the page (June 2026); the gpt-5 / gpt-4.1 /
 *   gpt-4o rows are the last published prices of models the page no longer lists.
 * - DeepSeek: https://api-docs.deepseek.com/quick_start/pricing. DeepSeek bills half price
 *   off-peak; this table holds the PEAK price, so DeepSeek costs here are an upper bound.
 *   `deepseek-v4-flash` is the legacy name DeepSeek bills at the Flash price.
 * - TaoToken publishes no per-token USD table we could read: its models have no default price.
 * - The simulator's models (`sim-*`) cost nothing real and have no price: runs on it show
 *   cost "unknown" unless a `pricing:` block names them.
 */
import type { ModelPrice } from './price-table.js';

export const DEFAULT_PRICES_DATE = '2026-12-01';

const price = (input: number, cachedInput: number, output: number): ModelPrice => ({ input, cachedInput, output });

export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI
  'gpt-5.5': price(5, 0.5, 30),
  'gpt-5.4': price(2.5, 0.25, 15),
  'gpt-5.4-mini': price(0.75, 0.075, 4.5),
  'gpt-5.4-nano': price(0.2, 0.02, 1.25),
  'gpt-5.3-codex': price(1.75, 0.175, 14),
  'gpt-5.2': price(1.75, 0.175, 14),
  'gpt-5.2-codex': price(1.75, 0.175, 14),
  'gpt-5': price(1.25, 0.125, 10),
  'gpt-5-codex': price(1.25, 0.125, 10),
  'gpt-5-mini': price(0.25, 0.025, 2),
  'gpt-5-nano': price(0.05, 0.005, 0.4),
  'gpt-4.1': price(2, 0.5, 8),
  'gpt-4.1-mini': price(0.4, 0.1, 1.6),
  'gpt-4.1-nano': price(0.1, 0.025, 0.4),
  'gpt-4o': price(2.5, 1.25, 10),
  'gpt-4o-mini': price(0.15, 0.075, 0.6),
  // Anthropic (model ids as the API takes them; dated ids such as -20250929 find these rows)
  'claude-opus-5': price(5, 0.5, 25),
  'claude-opus-4-8': price(5, 0.5, 25),
  'claude-opus-4-7': price(5, 0.5, 25),
  'claude-opus-4-6': price(5, 0.5, 25),
  'claude-opus-4-5': price(5, 0.5, 25),
  'claude-opus-4-1': price(15, 1.5, 75),
  'claude-opus-4-0': price(15, 1.5, 75),
  'claude-opus-4': price(15, 1.5, 75),
  'claude-sonnet-5': price(2, 0.2, 10),
  'claude-sonnet-4-6': price(3, 0.3, 15),
  'claude-sonnet-4-5': price(3, 0.3, 15),
  'claude-sonnet-4-0': price(3, 0.3, 15),
  'claude-sonnet-4': price(3, 0.3, 15),
  'claude-haiku-4-5': price(1, 0.1, 5),
  'claude-3-5-haiku': price(0.8, 0.08, 4),
  // DeepSeek (peak price, see above)
  'deepseek-flash': price(0.3, 0.006, 1.2),
  'deepseek-v4-flash': price(0.3, 0.006, 1.2),
  'deepseek-v4-pro': price(1.32, 0.044, 3.96),
});
