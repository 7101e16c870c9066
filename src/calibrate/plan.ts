/**
 * A calibration input from the command-line choices and, when given, the experiment's own
 * config (gates, best_of_n, budget), else `DEFAULTS` — the same values a run would judge by.
 */
import { DEFAULTS } from '../config/defaults.js';
import type { ExperimentConfig, GatesConfig } from '../config/types.js';
import type { CalibrationInput } from './calibrate.js';

export interface CalibrationChoices {
  cases: number;
  baselinePass: number;
  spread: number;
  effect: number;
  categories: number;
  experiments: number;
  searchExperiments: number;
  /** Bootstrap rounds per simulated analysis. */
  rounds: number;
  seed: number;
  allArms: boolean;
  searchMax: number;
}

export const CALIBRATION_DEFAULTS: CalibrationChoices = {
  cases: 200,
  baselinePass: 0.6,
  spread: 0.25,
  effect: 0.1,
  categories: 4,
  experiments: 500,
  searchExperiments: 200,
  rounds: 500,
  seed: 1,
  allArms: false,
  searchMax: 3200,
};

/** Median tokens of one path when B allows it (tokens). */
const TOKENS_PER_PATH = 1500;
/** Median latency of one path (ms). */
const LATENCY_MS = 2000;

export interface CalibrationPlan {
  input: CalibrationInput;
  /** The gates as the plan states them (its own bootstrap rounds, not the simulation's). */
  planGates: GatesConfig;
  bestOfN: number[];
}

export function calibrationPlan(choices: CalibrationChoices, config: ExperimentConfig | undefined): CalibrationPlan {
  const planGates: GatesConfig = config?.gates ?? {
    minSameBudgetGain: DEFAULTS.minSameBudgetGain,
    maxTokenGrowthRatio: DEFAULTS.maxTokenGrowthRatio,
    maxLatencyGrowthRatio: DEFAULTS.maxLatencyGrowthRatio,
    bootstrapRounds: DEFAULTS.bootstrapRounds,
    confidence: DEFAULTS.confidence,
  };
  const bestOfN = [...new Set([1, ...(config?.budget.bestOfN ?? DEFAULTS.bestOfN)])].sort((a, b) => a - b);
  const budget = config?.budget.totalTokensPerCase ?? DEFAULTS.totalTokensPerCase;
  const widest = Math.max(...bestOfN);
  return {
    planGates,
    bestOfN,
    input: {
      cases: choices.cases,
      population: {
        baselinePass: choices.baselinePass,
        spread: choices.spread,
        effect: choices.effect,
        categories: choices.categories,
        // Half of B for the widest arm keeps the cap at B rare, as in a budget that fits.
        tokensPerPath: Math.max(1, Math.min(TOKENS_PER_PATH, Math.floor(budget / (2 * widest)))),
        latencyMs: LATENCY_MS,
      },
      // Oracle selection is the config default; other selectors are not modelled.
      arms: { bestOfN, budget, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 },
      gates: { ...planGates, bootstrapRounds: choices.rounds },
      experiments: choices.experiments,
      seed: choices.seed,
      allArms: choices.allArms,
      targetPower: 0.8,
      searchExperiments: choices.searchExperiments,
      searchStart: 25,
      searchMax: choices.searchMax,
    },
  };
}
