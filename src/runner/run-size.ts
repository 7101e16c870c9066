/**
 * What a run may cost before it starts, pure: units, calls at most, the worst case in tokens
 * (Σ over units of B, plus the judge and selector calls B does not bound) and in USD at the
 * price table, and the expectation from an earlier run of the same experiment. Printed by
 * `run --dry-run` and at every start; the worst case of one unit is what the run-level cap
 * (`run-cap.ts`) reserves before the unit starts.
 */
import type { ExperimentConfig } from '../config/types.js';
import { findPrice, type PriceTable } from '../pricing/price-table.js';
import type { Unit } from './plan.js';

/** Allowance (tokens) for a judge prompt's own text — rubric, case, instructions — over the answers it grades. */
const JUDGE_PROMPT_ALLOWANCE = 2_000;

export interface UnitWorstCase {
  /** Tokens the unit may spend at most: B, plus judging when B does not count it (tokens). */
  tokens: number;
  /** USD at the price table; undefined when a model it calls has no price. */
  usd: number | undefined;
  /** Model calls at most; undefined when the executor does not bound them (a command agent). */
  calls: number | undefined;
}

export interface RunSize {
  units: number;
  /** Model calls at most; undefined when unbounded (a command agent's calls are capped in tokens only). */
  calls: number | undefined;
  /** Σ over units of their worst case (tokens). */
  worstCaseTokens: number;
  /** Of which judge and selector calls not counted toward B (tokens). */
  judgeTokens: number;
  /** USD of the worst case; undefined when a model has no price. */
  worstCaseUsd: number | undefined;
  /** Models without a price (the USD figure is then unknown, not 0). */
  unpricedModels: string[];
  /** The models priced, for the wording ("at gpt-4o prices"). */
  pricedModels: string[];
}

/** Per-million price a worst case is charged at: the dearer of input and output (every token could be either). */
function worstRate(table: PriceTable, model: string): number | undefined {
  const price = findPrice(table, model);
  return price === undefined ? undefined : Math.max(price.input, price.output) / 1_000_000;
}

function judgeCallsAndTokens(config: ExperimentConfig, unit: Unit): { calls: number; tokens: number; model: string | undefined } {
  const perPath = Math.min(config.budget.perCaseMaxTokens, Math.floor(config.budget.totalTokensPerCase / unit.arm.n));
  let calls = 0;
  let tokens = 0;
  let model: string | undefined;
  if (config.scorer.type === 'judge') {
    calls += unit.arm.n;
    tokens += unit.arm.n * (config.scorer.maxTokens + perPath + JUDGE_PROMPT_ALLOWANCE);
    model = config.scorer.model;
  }
  if (unit.arm.n > 1 && config.selector.type === 'judge') {
    calls += 1;
    tokens += config.selector.maxTokens + unit.arm.n * perPath + JUDGE_PROMPT_ALLOWANCE;
    model ??= config.selector.model;
  }
  return { calls, tokens, model };
}

function generationCalls(config: ExperimentConfig, unit: Unit): number | undefined {
  const paths = config.nMode === 'native' ? 1 : unit.arm.n;
  if (config.executor.type === 'agent') return unit.arm.n * config.executor.maxTurns;
  if (config.executor.type === 'command') return undefined;
  return paths;
}

export function unitWorstCase(config: ExperimentConfig, unit: Unit, prices: PriceTable): UnitWorstCase {
  const B = config.budget.totalTokensPerCase;
  const judge = judgeCallsAndTokens(config, unit);
  const model = config.variants[unit.arm.variant].model;
  const generationRate = worstRate(prices, model);
  const judgeRate = judge.model === undefined ? 0 : worstRate(prices, judge.model);
  // With include_judge, judging is inside B: the unit can never spend more than B.
  const judgeOutside = config.budget.includeJudge ? 0 : judge.tokens;
  const usd = generationRate === undefined || judgeRate === undefined ? undefined : config.budget.includeJudge ? B * Math.max(generationRate, judgeRate) : B * generationRate + judgeOutside * judgeRate;
  const generation = generationCalls(config, unit);
  return { tokens: B + judgeOutside, usd, calls: generation === undefined ? undefined : generation + judge.calls };
}

export function sizeRun(config: ExperimentConfig, units: readonly Unit[], prices: PriceTable): RunSize {
  let calls: number | undefined = 0;
  let worstCaseTokens = 0;
  let judgeTokens = 0;
  let usd: number | undefined = 0;
  for (const unit of units) {
    const worst = unitWorstCase(config, unit, prices);
    worstCaseTokens += worst.tokens;
    judgeTokens += worst.tokens - config.budget.totalTokensPerCase;
    calls = calls === undefined || worst.calls === undefined ? undefined : calls + worst.calls;
    usd = usd === undefined || worst.usd === undefined ? undefined : usd + worst.usd;
  }
  const models = [...new Set([config.variants.baseline.model, config.variants.candidate.model, ...judgeModels(config)])].filter((m) => m !== '');
  return {
    units: units.length,
    calls,
    worstCaseTokens,
    judgeTokens,
    worstCaseUsd: usd,
    unpricedModels: models.filter((m) => findPrice(prices, m) === undefined),
    pricedModels: models.filter((m) => findPrice(prices, m) !== undefined),
  };
}

function judgeModels(config: ExperimentConfig): string[] {
  const models: string[] = [];
  if (config.scorer.type === 'judge') models.push(config.scorer.model);
  if (config.selector.type === 'judge' && config.budget.bestOfN.some((n) => n > 1)) models.push(config.selector.model);
  return models;
}

/** An earlier run of the same experiment, scaled to this plan: what the run is likely to spend. */
export interface ExpectedSpend {
  runId: string;
  /** Tokens the earlier run's calls billed, scaled by units planned here ÷ units it committed (tokens). */
  tokens: number;
}

export function expectedSpend(earlier: { runId: string; tokens: number; units: number } | undefined, units: number): ExpectedSpend | undefined {
  if (earlier === undefined || earlier.units <= 0) return undefined;
  return { runId: earlier.runId, tokens: Math.round((earlier.tokens / earlier.units) * units) };
}

/** "1.2M", "31M", "240,000" — the expectation is an estimate: two significant figures. */
export function roughTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toPrecision(2))}M`;
  if (tokens >= 10_000) return `${Number((tokens / 1_000).toPrecision(2))}k`;
  return String(tokens);
}

/**
 * One line: "880 units, at most 3,520 calls; worst case 240,000,000 tokens ≈ $2,400 at gpt-4o
 * prices; expected ≈ 31M (from run bf-…)".
 */
export function describeRunSize(size: RunSize, expected: ExpectedSpend | undefined, formatUsd: (usd: number) => string, simulator = false): string {
  const calls = size.calls === undefined ? 'calls bounded by tokens only (command agent)' : `at most ${size.calls.toLocaleString('en-US')} calls`;
  const judging = size.judgeTokens > 0 ? ` (of which ${size.judgeTokens.toLocaleString('en-US')} judging outside B)` : '';
  const money = simulator ? ' (simulator: no money)' : size.worstCaseUsd === undefined
    ? `; no price for ${size.unpricedModels.join(', ')} (add \`pricing:\` or --pricing for the USD figure)`
    : ` ≈ ${formatUsd(size.worstCaseUsd)} at ${size.pricedModels.join(' + ')} prices`;
  const likely = expected === undefined ? '' : `; expected ≈ ${roughTokens(expected.tokens)} (from run ${expected.runId})`;
  return `${size.units.toLocaleString('en-US')} units, ${calls}; worst case ${size.worstCaseTokens.toLocaleString('en-US')} tokens${judging}${money}${likely}`;
}
