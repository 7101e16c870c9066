/**
 * The "must show": the verdict's false-promotion rate and power, by simulation.
 * Fixed seeds: each number below is deterministic, the bounds leave room for Monte-Carlo error.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULTS } from '../config/defaults.js';
import type { GatesConfig } from '../config/types.js';
import { calibrate } from './calibrate.js';
import { summarizePopulation, type Population } from './latent.js';
import { calibrationPlan, CALIBRATION_DEFAULTS } from './plan.js';
import { simulateScenario, type ScenarioInput } from './simulate.js';

const defaultGates: GatesConfig = {
  minSameBudgetGain: DEFAULTS.minSameBudgetGain,
  maxTokenGrowthRatio: DEFAULTS.maxTokenGrowthRatio,
  maxLatencyGrowthRatio: DEFAULTS.maxLatencyGrowthRatio,
  bootstrapRounds: DEFAULTS.bootstrapRounds,
  confidence: DEFAULTS.confidence,
};
const population: Population = { baselinePass: 0.6, spread: 0.25, effect: 0, categories: 4, tokensPerPath: 1500, latencyMs: 2000 };

function scenario(effect: number, overrides: Partial<ScenarioInput> = {}): ScenarioInput {
  const withEffect = { ...population, effect };
  return {
    population: withEffect,
    shiftFactor: summarizePopulation(withEffect, 99).shiftFactor,
    arms: { bestOfN: [1], budget: DEFAULTS.totalTokensPerCase, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 },
    gates: defaultGates,
    cases: 200,
    experiments: 500,
    seed: 2024,
    ...overrides,
  };
}

describe('calibration of the verdict', () => {
  test('null, default gates, 200 cases: real_evolution in ≤ 5% of 500 simulated experiments', () => {
    // The default gates with 1,000 bootstrap rounds per analysis instead of 2,000: 2,000 took
    // ~9 s on this 2-core machine at moderate load and 44 s at heavy load. The verdict counts for this seed
    // are the same at 2,000 (14 real_evolution of 500 either way). n=1 arms only: rule 3
    // cannot see the Best-of-N arms (checked below), and they would quadruple the time.
    const result = simulateScenario(scenario(0, { gates: { ...defaultGates, bootstrapRounds: 1000 } }));
    expect(result.experiments).toBe(500);
    // Seed 2024: 14/500 = 2.8%, Wilson 95% CI [1.7%, 4.6%] — the interval, too, is below 5%.
    expect(result.rate).toBeLessThanOrEqual(0.05);
  });

  test('power at 200 cases: high for a true +0.15, low for +0.02', () => {
    // 500 bootstrap rounds per analysis (instead of 2,000) to keep this test fast; the
    // verdict reads only the CI's lower bound, whose Monte-Carlo error at 500 rounds is small
    // against the between-experiment spread.
    const rounds500 = { ...defaultGates, bootstrapRounds: 500 };
    const strong = simulateScenario(scenario(0.15, { gates: rounds500, experiments: 300 }));
    const weak = simulateScenario(scenario(0.02, { gates: rounds500, experiments: 300 }));
    // Seed 2024: +0.15 → 287/300 = 95.7% [92.7%, 97.5%]; +0.02 → 24/300 = 8.0% [5.4%, 11.6%].
    expect(strong.rate).toBeGreaterThan(0.8);
    expect(strong.ci[0]).toBeGreaterThan(0.8);
    expect(weak.rate).toBeLessThan(0.15);
  });

  test('the Best-of-N arms never change whether real_evolution fires', () => {
    const fast = { ...defaultGates, bootstrapRounds: 200 };
    const withArms = simulateScenario(scenario(0.1, { gates: fast, experiments: 60, arms: { ...scenario(0).arms, bestOfN: [1, 4, 8] } }));
    const without = simulateScenario(scenario(0.1, { gates: fast, experiments: 60 }));
    expect(withArms.promoted).toBe(without.promoted);
    expect(withArms.verdicts.regression ?? 0).toBe(without.verdicts.regression ?? 0);
    expect(withArms.promoted).toBeGreaterThan(10);
  });

  test('the token gate bites: a candidate billing 2× per path is budget_growth, not real_evolution', () => {
    const fast = { ...defaultGates, bootstrapRounds: 200 };
    const costly = simulateScenario(scenario(0.15, { gates: fast, experiments: 60, arms: { ...scenario(0).arms, candidateTokenRatio: 2 } }));
    expect(costly.promoted).toBe(0);
    expect(costly.verdicts.budget_growth ?? 0).toBeGreaterThan(40);
  });

  test('cost gaming (issue 24): a true tokens/success ×1.3 at 200 cases, heavy-tailed costs, is real_evolution in ≤ 5%', () => {
    // Per-path token log-SD 0.8 (agent-like tails) instead of 0.2; +0.15 gain; the candidate's
    // paths cost ×1.3 · p_B/p_A so that tokens per success is truly ×1.3 (gate ×1.15).
    const fast = { ...defaultGates, bootstrapRounds: 500 };
    const passRatio = (0.6 + 0.15) / 0.6;
    const arms = { ...scenario(0).arms, budget: 1e9, pathTokenLogSd: 0.8 };
    const gaming = simulateScenario(scenario(0.15, { gates: fast, experiments: 200, arms: { ...arms, candidateTokenRatio: 1.3 * passRatio } }));
    // Seed 2024: 8 of 200 (4.0%) — 31 budget_growth, the rest inconclusive.
    expect(gaming.rate).toBeLessThanOrEqual(0.05);
    expect((gaming.verdicts.budget_growth ?? 0) + (gaming.verdicts.inconclusive ?? 0)).toBeGreaterThan(180);
    // A true ×1.0 with the usual tails keeps its power (95.7% on the point estimate alone).
    const honest = simulateScenario(scenario(0.15, { gates: fast, experiments: 200 }));
    expect(honest.rate).toBeGreaterThan(0.9);
    // The n=1 interval's coverage of the population effect, reported beside the rates.
    expect(honest.coverage).toBeGreaterThan(0.9);
  });

  test('calibrate(): both scenarios, the case search and the closed forms, deterministic', () => {
    const choices = { ...CALIBRATION_DEFAULTS, effect: 0.2, categories: 0, experiments: 100, searchExperiments: 100, rounds: 200 };
    const { input } = calibrationPlan(choices, undefined);
    const report = calibrate(input);
    expect(report.null.experiments).toBe(100);
    expect(report.alternative.rate).toBeGreaterThan(0.9);
    expect(report.costGamingRatio).toBe(1.3);
    expect(report.costGaming.rate).toBeLessThanOrEqual(0.05);
    expect(report.null.coverage).toBeGreaterThan(0.85);
    const search = report.search!;
    expect(search.cases).not.toBeNull();
    expect(search.atCases!.rate).toBeGreaterThanOrEqual(0.8);
    // Every count searched below the answer missed the target.
    for (const point of search.evaluated.filter((p) => p.cases < search.cases!)) expect(point.rate).toBeLessThan(0.8);
    expect(search.cases!).toBeGreaterThanOrEqual(25);
    expect(search.cases!).toBeLessThan(200);
    // The simulated count is in the closed forms' neighbourhood (MC error and discreteness).
    expect(search.cases! / report.closedForm.withGainGate!).toBeGreaterThan(0.5);
    expect(search.cases! / report.closedForm.withGainGate!).toBeLessThan(2);
    expect(calibrate(input)).toEqual(report);
  });

  test('no search when the effect is at most the min gain: no count reaches 80%', () => {
    const { input } = calibrationPlan({ ...CALIBRATION_DEFAULTS, effect: 0.05, categories: 0, experiments: 20, rounds: 100 }, undefined);
    const report = calibrate(input);
    expect(report.search).toBeUndefined();
    expect(report.closedForm.withGainGate).toBeNull();
    expect(report.closedForm.ciOnly).toBeGreaterThan(500);
  });
});
