/**
 * Many simulated experiments of one scenario, each analysed and judged by the real pipeline,
 * `decideVerdict(analyzeResults(...))`. The share of `real_evolution` verdicts is the
 * false-promotion rate when the effect is 0 and the power when it is not.
 *
 * Experiment e draws its streams from seeds that depend only on (seed, e): the null, the
 * effect and every case count reuse the same random numbers (common random numbers), so a
 * difference between scenarios is the effect, not new noise, and an experiment with 400
 * cases contains the 200 of the smaller one as its first cases.
 */
import type { AnalysisContext } from '../analysis/analyze-run.js';
import { analyzeResults } from '../analysis/analyze-run.js';
import type { GatesConfig } from '../config/types.js';
import { createRng, wilsonInterval, type Interval } from '../stats/index.js';
import { decideVerdict } from '../verdict/decide.js';
import type { VerdictName } from '../verdict/record.js';
import { drawLatentCases, type Population } from './latent.js';
import { syntheticResults, type ArmModel } from './synthetic-results.js';

export interface ScenarioInput {
  population: Population;
  /** e^θ from `summarizePopulation` for this population's effect. */
  shiftFactor: number;
  arms: ArmModel;
  /** The gates judged; `bootstrapRounds` is the rounds each simulated analysis uses. */
  gates: GatesConfig;
  cases: number;
  /** Experiments to simulate (at most, with `stopWhenClearOf`). */
  experiments: number;
  seed: number;
  /**
   * Stop early, at a multiple of 50 experiments, once a 99% Wilson interval of the rate
   * excludes this value: a case-count search only needs to know which side of the target a
   * count is on, and counts far from it are settled in 50 experiments. 99% rather than 95%
   * because the rate is looked at repeatedly.
   */
  stopWhenClearOf?: number;
}

export interface ScenarioResult {
  cases: number;
  /** Population mean pass-rate delta (probability scale). */
  effect: number;
  /** Experiments simulated (fewer than asked when stopped early). */
  experiments: number;
  /** Experiments whose verdict was `real_evolution`. */
  promoted: number;
  rate: number;
  /** Wilson 95% interval of `rate` (Monte-Carlo error of the simulation). */
  ci: Interval;
  verdicts: Partial<Record<VerdictName, number>>;
  /**
   * Share of experiments whose n=1 interval (`same_budget.ci95`, by its `ci_method`) held the
   * population effect: the interval's coverage, ~`confidence` when it holds its level.
   */
  coverage: number;
}

interface ExperimentSeeds {
  latent: number;
  singles: number;
  bestOfN: number;
  bootstrap: number;
}

/** A fixed instant: the verdict record's timestamp is irrelevant here and `new Date()` is not free. */
const EPOCH = new Date(0);
const STOP_BATCH = 50;

export function simulateScenario(input: ScenarioInput): ScenarioResult {
  if (!(Number.isInteger(input.cases) && input.cases >= 2)) throw new RangeError(`cases must be an integer ≥ 2, got ${input.cases}`);
  if (!(Number.isInteger(input.experiments) && input.experiments >= 1)) throw new RangeError(`experiments must be a positive integer, got ${input.experiments}`);
  const verdicts: Partial<Record<VerdictName, number>> = {};
  let covered = 0;
  const bestOfN = [1, ...new Set(input.arms.bestOfN.filter((n) => n > 1))].sort((a, b) => a - b);
  let done = 0;
  for (const seeds of experimentSeeds(input.seed, input.experiments)) {
    if (input.stopWhenClearOf !== undefined && done > 0 && done % STOP_BATCH === 0) {
      const [low, high] = wilsonInterval(verdicts.real_evolution ?? 0, done, 0.99);
      if (low > input.stopWhenClearOf || high < input.stopWhenClearOf) break;
    }
    done += 1;
    const cases = drawLatentCases(input.population, input.shiftFactor, input.cases, createRng(seeds.latent));
    const results = syntheticResults(cases, { ...input.arms, bestOfN }, seeds);
    const context: AnalysisContext = {
      runId: 'calibrate',
      experiment: 'calibrate',
      split: 'val',
      budget: input.arms.budget,
      bestOfN,
      baselineId: 'baseline',
      candidateId: 'candidate',
      gates: input.gates,
      seed: seeds.bootstrap,
      nonBindingArms: [],
    };
    const record = decideVerdict(analyzeResults(results, context), EPOCH);
    verdicts[record.verdict] = (verdicts[record.verdict] ?? 0) + 1;
    const ci = record.same_budget?.ci95;
    if (ci && ci[0] <= input.population.effect && input.population.effect <= ci[1]) covered += 1;
  }
  const promoted = verdicts.real_evolution ?? 0;
  return {
    cases: input.cases,
    effect: input.population.effect,
    experiments: done,
    promoted,
    rate: promoted / done,
    ci: wilsonInterval(promoted, done, 0.95),
    verdicts,
    coverage: covered / done,
  };
}

/** Seeds of experiments 0..count−1, a function of `seed` and the index only. */
export function experimentSeeds(seed: number, count: number): ExperimentSeeds[] {
  const master = createRng(seed);
  const seeds: ExperimentSeeds[] = [];
  for (let e = 0; e < count; e += 1) {
    seeds.push({ latent: master.nextUint32(), singles: master.nextUint32(), bestOfN: master.nextUint32(), bootstrap: master.nextUint32() });
  }
  return seeds;
}
