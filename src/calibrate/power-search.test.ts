import { expect, test } from 'vitest';
import { summarizePopulation, type Population } from './latent.js';
import { searchCasesForPower } from './power-search.js';

const population: Population = { baselinePass: 0.6, spread: 0.25, effect: 0.1, categories: 0, tokensPerPath: 1500, latencyMs: 2000 };
const scenario = {
  population,
  shiftFactor: summarizePopulation(population, 1).shiftFactor,
  arms: { bestOfN: [1], budget: 200_000, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 },
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 100, confidence: 0.95 },
  experiments: 50,
  seed: 4,
};

test('gives up at the cap: +0.10 needs far more than 100 cases', () => {
  const result = searchCasesForPower({ scenario, target: 0.8, start: 25, maxCases: 100 });
  expect(result.cases).toBeNull();
  expect(result.atCases).toBeUndefined();
  expect(result.evaluated.map((r) => r.cases)).toEqual([25, 50, 100]);
  // Far below the target: settled after the first batch of 50 experiments.
  expect(result.evaluated.every((r) => r.rate < 0.8)).toBe(true);
});

test('reuses known counts instead of simulating them again', () => {
  const known = { cases: 25, effect: 0.1, experiments: 1, promoted: 1, rate: 1, ci: [0, 1] as const, verdicts: { real_evolution: 1 }, coverage: 1 };
  const result = searchCasesForPower({ scenario, target: 0.8, start: 25, maxCases: 100, known: [known] });
  expect(result.cases).toBe(25);
  expect(result.atCases).toBe(known);
  expect(result.evaluated).toHaveLength(1);
});
