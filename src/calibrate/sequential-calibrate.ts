/**
 * `calibrate --sequential`, pure: how sequential screening behaves against the fixed-size run,
 * by simulation. For each true n=1 effect and split size, many experiments are drawn (the
 * latent population of latent.ts, the synthetic results of synthetic-results.ts); each one is
 * screened by the real monitor (the runner's stop rule, a look after every block) and judged by
 * the real pipeline — `decideVerdict(analyzeResults(...))` on the cases read, then the
 * sequential rules — and, on the same draws, by the fixed-size verdict over the whole split.
 *
 * Counted per cell: promotions (`real_evolution`), which are false promotions when the effect is
 * below min_same_budget_gain and power otherwise; the fraction of the fixed run's tokens the
 * screen spent (Σ billed tokens of the cases read ÷ Σ over the whole split); stop reasons.
 * Looks happen at every block, so a false promotion at any look counts: this is the error rate
 * under optional stopping, not at one planned end.
 *
 * Common random numbers: experiment e uses the same seeds at every effect and size (the
 * 200-case split is the first 200 cases of the 800-case one), so differences between cells are
 * the effect, not new noise. Only the n=1 arms are simulated: the Best-of-N arms cannot promote
 * (see calibrate.ts), and since every case costs the same in expectation, the token fraction is
 * the same share with them.
 */
import { analyzeResults, type AnalysisContext } from '../analysis/analyze-run.js';
import type { GatesConfig, SequentialConfig } from '../config/types.js';
import type { ResultRecord } from '../ledger/records.js';
import { replaySequential } from '../runner/sequential-monitor.js';
import type { SequentialPlan } from '../runner/sequential-plan.js';
import { createRng, quantile, wilsonInterval, type Interval } from '../stats/index.js';
import { decideVerdict } from '../verdict/decide.js';
import type { VerdictName } from '../verdict/record.js';
import { sequentialVerdictName } from '../verdict/sequential-verdict.js';
import { drawLatentCases, summarizePopulation, type Population } from './latent.js';
import { experimentSeeds } from './simulate.js';
import { syntheticResults, type ArmModel } from './synthetic-results.js';

export interface SequentialCalibrationInput {
  /** True population n=1 deltas to simulate (probability scale). */
  effects: readonly number[];
  /** Split sizes (cases). */
  sizes: readonly number[];
  /** The latent population; its `effect` is replaced by each of `effects`. */
  population: Population;
  arms: ArmModel;
  /** Gates judged; `bootstrapRounds` is what each simulated analysis uses. */
  gates: GatesConfig;
  sequential: SequentialConfig;
  /** Experiments per (effect, size). */
  experiments: number;
  seed: number;
}

export interface SequentialCell {
  effect: number;
  cases: number;
  experiments: number;
  /** `real_evolution` verdicts of the sequential screen. */
  promoted: number;
  promotion_rate: number;
  promotion_ci95: Interval;
  /** The promotion rate when the effect is below min_same_budget_gain, else null. */
  false_promotion_rate: number | null;
  /** Wilson 95% interval of `false_promotion_rate` (Monte-Carlo error), else null. */
  false_promotion_ci95: Interval | null;
  /** The promotion rate when the effect is at least min_same_budget_gain, else null. */
  power: number | null;
  power_ci95: Interval | null;
  /** Mean and 90th percentile of (tokens the screen spent ÷ tokens of the whole split). */
  tokens_fraction_mean: number;
  tokens_fraction_p90: number;
  /** Mean share of the split's cases read. */
  cases_fraction_mean: number;
  stop_reasons: Record<string, number>;
  verdicts: Partial<Record<VerdictName, number>>;
  /** The fixed-size verdict on the same draws, over the whole split. */
  fixed: { promoted: number; promotion_rate: number; promotion_ci95: Interval; verdicts: Partial<Record<VerdictName, number>> };
}

export interface SequentialCalibrationReport {
  effects: number[];
  sizes: number[];
  experiments: number;
  seed: number;
  rounds: number;
  minGain: number;
  sequential: SequentialConfig;
  cells: SequentialCell[];
}

/** A fixed instant: the verdict's timestamp is irrelevant here. */
const EPOCH = new Date(0);

export function calibrateSequential(input: SequentialCalibrationInput): SequentialCalibrationReport {
  const seeds = experimentSeeds(input.seed, input.experiments);
  const arms: ArmModel = { ...input.arms, bestOfN: [1] };
  const cells: SequentialCell[] = [];
  for (const effect of input.effects) {
    const population: Population = { ...input.population, effect };
    const { shiftFactor } = summarizePopulation(population, input.seed + 1);
    for (const cases of input.sizes) {
      const tally = newTally();
      for (const experiment of seeds) {
        const latent = drawLatentCases(population, shiftFactor, cases, createRng(experiment.latent));
        const results = syntheticResults(latent, arms, experiment);
        screenOne(results, latent.map((c) => c.id), input, experiment.bootstrap, tally);
      }
      cells.push(cellOf(effect, cases, tally, input.gates.minSameBudgetGain));
    }
  }
  return {
    effects: [...input.effects],
    sizes: [...input.sizes],
    experiments: input.experiments,
    seed: input.seed,
    rounds: input.gates.bootstrapRounds,
    minGain: input.gates.minSameBudgetGain,
    sequential: input.sequential,
    cells,
  };
}

interface Tally {
  verdicts: Partial<Record<VerdictName, number>>;
  fixed: Partial<Record<VerdictName, number>>;
  stops: Record<string, number>;
  tokenFractions: number[];
  caseFractions: number[];
}

function newTally(): Tally {
  return { verdicts: {}, fixed: {}, stops: {}, tokenFractions: [], caseFractions: [] };
}

function screenOne(results: ResultRecord[], order: string[], input: SequentialCalibrationInput, bootstrapSeed: number, tally: Tally): void {
  const plan: SequentialPlan = {
    // Latent cases are i.i.d., so their own order is already a random order.
    order,
    orderSeed: 0,
    lookEvery: input.sequential.lookEvery,
    minCases: input.sequential.minCases,
    levels: { minGain: input.gates.minSameBudgetGain, confidence: input.sequential.confidence ?? input.gates.confidence, gainConfidence: input.sequential.gainConfidence, futilityConfidence: input.sequential.futilityConfidence, horizon: order.length },
    maxTokenGrowthRatio: input.gates.maxTokenGrowthRatio,
    maxLatencyGrowthRatio: input.gates.maxLatencyGrowthRatio,
    epochs: 1,
    bestOfN: [1],
  };
  const outcome = replaySequential(plan, results).outcome();
  const read = new Set(outcome.caseIds);
  const screened = results.filter((r) => read.has(r.case_id));
  const context: AnalysisContext = {
    runId: 'calibrate', experiment: 'calibrate', split: 'val', budget: input.arms.budget, bestOfN: [1],
    baselineId: 'baseline', candidateId: 'candidate', gates: input.gates, seed: bootstrapSeed, nonBindingArms: [],
  };
  const onScreened = decideVerdict(analyzeResults(screened, context), EPOCH).verdict;
  const { verdict } = sequentialVerdictName(onScreened, outcome);
  const fixed = decideVerdict(analyzeResults(results, context), EPOCH).verdict;
  count(tally.verdicts, verdict);
  count(tally.fixed, fixed);
  const stop = outcome.stop?.reason ?? 'incomplete';
  tally.stops[stop] = (tally.stops[stop] ?? 0) + 1;
  const total = results.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0);
  tally.tokenFractions.push(outcome.tokens.read / total);
  tally.caseFractions.push(read.size / order.length);
}

function cellOf(effect: number, cases: number, tally: Tally, minGain: number): SequentialCell {
  const experiments = tally.tokenFractions.length;
  const promoted = tally.verdicts.real_evolution ?? 0;
  const rate = promoted / experiments;
  const ci = wilsonInterval(promoted, experiments, 0.95);
  const belowGain = effect < minGain;
  const fixedPromoted = tally.fixed.real_evolution ?? 0;
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    effect,
    cases,
    experiments,
    promoted,
    promotion_rate: rate,
    promotion_ci95: ci,
    false_promotion_rate: belowGain ? rate : null,
    false_promotion_ci95: belowGain ? ci : null,
    power: belowGain ? null : rate,
    power_ci95: belowGain ? null : ci,
    tokens_fraction_mean: mean(tally.tokenFractions),
    tokens_fraction_p90: quantile(tally.tokenFractions, 0.9) ?? Number.NaN,
    cases_fraction_mean: mean(tally.caseFractions),
    stop_reasons: tally.stops,
    verdicts: tally.verdicts,
    fixed: { promoted: fixedPromoted, promotion_rate: fixedPromoted / experiments, promotion_ci95: wilsonInterval(fixedPromoted, experiments, 0.95), verdicts: tally.fixed },
  };
}

function count(counts: Partial<Record<VerdictName, number>>, verdict: VerdictName): void {
  counts[verdict] = (counts[verdict] ?? 0) + 1;
}
