/**
 * `calibrate`, pure: for a planned experiment, the false-promotion rate of `real_evolution`
 * under the null, the power under a stated effect, and the case count that reaches the
 * target power — by simulation, beside the closed-form approximations.
 *
 * Speed. Rule 3 (`real_evolution`) reads only the n = 1 arms, the categories, the regression
 * set and the invariants; the Best-of-N arms (C/D) cannot change whether it fires. Since the
 * generator draws A/B from their own stream, dropping C/D leaves every experiment's
 * `real_evolution` outcome identical (a test checks this), at a quarter of the cost. So only
 * `allArms` simulates C/D, for the full verdict distribution (e.g. `budget_leakage`).
 */
import type { GatesConfig } from '../config/types.js';
import { closedFormCases, type ClosedFormCases } from './closed-form.js';
import { summarizePopulation, type Population } from './latent.js';
import { searchCasesForPower, type PowerSearchResult } from './power-search.js';
import { simulateScenario, type ScenarioInput, type ScenarioResult } from './simulate.js';
import type { ArmModel } from './synthetic-results.js';

/** Issue 24: a true ×1.3 tokens_per_success at the default gate of ×1.15 must rarely be promoted. */
export const COST_GAMING_RATIO = 1.3;

export interface CalibrationInput {
  /** Planned case count. */
  cases: number;
  /** Latent population; `effect` is the stated true effect (0 is simulated as well). */
  population: Population;
  arms: ArmModel;
  /** Gates judged; `bootstrapRounds` is what each simulated analysis uses. */
  gates: GatesConfig;
  /** Experiments per scenario. */
  experiments: number;
  seed: number;
  /** Simulate the Best-of-N arms too (full verdict distribution, ~4× slower). */
  allArms: boolean;
  /** Power the case-count search aims for (0.8); undefined skips the search. */
  targetPower: number | undefined;
  /** Experiments per count in the case-count search (at most; far counts stop early). */
  searchExperiments: number;
  /** Case-count search range (cases). */
  searchStart: number;
  searchMax: number;
}

export interface CalibrationReport {
  cases: number;
  effect: number;
  /** θ (logits) of the candidate's logit shift that gives `effect`. */
  logitShift: number;
  /** SD of one case's paired difference under the effect. */
  sdDiff: number;
  /** Bootstrap rounds of each simulated analysis. */
  rounds: number;
  experiments: number;
  seed: number;
  allArms: boolean;
  /** Effect 0: `rate` is the false-promotion rate. */
  null: ScenarioResult;
  /** The stated effect: `rate` is the power. */
  alternative: ScenarioResult;
  /**
   * The stated effect bought with spend: tokens_per_success truly ×`costGamingRatio` (above
   * the gate). `rate` is the cost-gaming rate — promotions the token gate should have stopped.
   */
  costGaming: ScenarioResult;
  /** True tokens_per_success ratio of the cost-gaming scenario (×1.3). */
  costGamingRatio: number;
  search: PowerSearchResult | undefined;
  closedForm: ClosedFormCases;
}

export function calibrate(input: CalibrationInput): CalibrationReport {
  const nullPopulation: Population = { ...input.population, effect: 0 };
  // A seed of its own for the population summary, so it does not consume experiment streams.
  const summaryNull = summarizePopulation(nullPopulation, input.seed + 1);
  const summary = summarizePopulation(input.population, input.seed + 1);
  const arms: ArmModel = input.allArms ? input.arms : { ...input.arms, bestOfN: [1] };
  const base = { arms, gates: input.gates, experiments: input.experiments, seed: input.seed };
  const scenario = (population: Population, shiftFactor: number): Omit<ScenarioInput, 'cases'> => ({ ...base, population, shiftFactor });
  const nullResult = simulateScenario({ ...scenario(nullPopulation, summaryNull.shiftFactor), cases: input.cases });
  const alternative = simulateScenario({ ...scenario(input.population, summary.shiftFactor), cases: input.cases });
  // Tokens per success = Σ tokens / Σ passes: a per-path ratio r gives r · p_A / p_B, so the
  // candidate's paths cost ×(1.3 · p_B / p_A) for a true tokens_per_success of ×1.3.
  const passRatio = (input.population.baselinePass + input.population.effect) / input.population.baselinePass;
  const costGaming = simulateScenario({ ...scenario(input.population, summary.shiftFactor), arms: { ...arms, candidateTokenRatio: arms.candidateTokenRatio * COST_GAMING_RATIO * passRatio }, cases: input.cases });
  const closedForm = closedFormCases({ effect: input.population.effect, sdDiff: summary.sdDiff, minGain: input.gates.minSameBudgetGain, confidence: input.gates.confidence, power: input.targetPower ?? 0.8 });
  // With effect ≤ min gain the point-estimate rule fails about half the time at any count:
  // no count reaches 80%, and searching up to the cap would only burn minutes.
  const search =
    input.targetPower === undefined || closedForm.withGainGate === null
      ? undefined
      : searchCasesForPower({
          scenario: { ...scenario(input.population, summary.shiftFactor), arms: { ...input.arms, bestOfN: [1] }, experiments: input.searchExperiments },
          target: input.targetPower,
          start: input.searchStart,
          maxCases: input.searchMax,
          // Same seeds and the same first experiments: the planned count needs no rerun.
          known: [alternative],
        });
  return {
    cases: input.cases,
    effect: input.population.effect,
    logitShift: summary.logitShift,
    sdDiff: summary.sdDiff,
    rounds: input.gates.bootstrapRounds,
    experiments: input.experiments,
    seed: input.seed,
    allArms: input.allArms,
    null: nullResult,
    alternative,
    costGaming,
    costGamingRatio: COST_GAMING_RATIO,
    search,
    closedForm,
  };
}
