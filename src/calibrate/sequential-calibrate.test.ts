/**
 * calibrate --sequential, small and seeded: the wiring and the invariants of the simulation.
 * The full table (1,000 experiments per cell, 200 and 800 cases) is measured by the CLI and
 * recorded in the README; these runs are too small to read 5% rates from.
 */
import { describe, expect, test } from 'vitest';
import { calibrateSequential, type SequentialCalibrationInput } from './sequential-calibrate.js';

const input: SequentialCalibrationInput = {
  effects: [0, 0.05, 0.2],
  sizes: [120],
  population: { baselinePass: 0.6, spread: 0.25, effect: 0, categories: 0, tokensPerPath: 1500, latencyMs: 2000 },
  arms: { bestOfN: [1], budget: 200_000, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 },
  gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 100, confidence: 0.95 },
  sequential: { lookEvery: 20, minCases: 40, gainConfidence: 0.85, futilityConfidence: 0.65 },
  experiments: 40,
  seed: 5,
};

describe('calibrateSequential', () => {
  const report = calibrateSequential(input);
  const cell = (effect: number) => report.cells.find((c) => c.effect === effect)!;

  test('one cell per effect and size; false promotion below the min gain, power at or above it', () => {
    expect(report.cells.map((c) => [c.effect, c.cases])).toEqual([[0, 120], [0.05, 120], [0.2, 120]]);
    for (const c of report.cells) {
      expect(c.experiments).toBe(40);
      expect(Object.values(c.stop_reasons).reduce((a, b) => a + b, 0)).toBe(40);
      expect(Object.values(c.verdicts).reduce((a, b) => a + b, 0)).toBe(40);
      expect(c.promoted).toBe(c.verdicts.real_evolution ?? 0);
      // A promotion needs an efficacy stop or the whole split.
      expect(c.promoted).toBeLessThanOrEqual((c.stop_reasons.efficacy ?? 0) + (c.stop_reasons.exhausted ?? 0));
      expect(c.tokens_fraction_mean).toBeGreaterThan(0);
      expect(c.tokens_fraction_p90).toBeLessThanOrEqual(1);
    }
    expect(cell(0).false_promotion_rate).toBe(cell(0).promotion_rate);
    expect(cell(0).power).toBeNull();
    expect(cell(0.2).power).toBe(cell(0.2).promotion_rate);
    expect(cell(0.2).false_promotion_rate).toBeNull();
  });

  test('a null stops early and is never promoted here; a +0.20 gain is promoted on fewer cases than the split', () => {
    expect(cell(0).promoted).toBe(0);
    expect(cell(0).stop_reasons.futility).toBeGreaterThan(20);
    expect(cell(0).tokens_fraction_mean).toBeLessThan(0.8);
    expect(cell(0.2).promoted).toBeGreaterThan(25);
    expect(cell(0.2).stop_reasons.efficacy).toBeGreaterThan(25);
    expect(cell(0.2).cases_fraction_mean).toBeLessThan(0.8);
  });

  test('deterministic for a seed', () => {
    expect(calibrateSequential({ ...input, effects: [0.05] }).cells[0]).toEqual(cell(0.05));
  });
});
