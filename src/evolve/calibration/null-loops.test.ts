import { describe, expect, test } from 'vitest';
import { analyzeResults } from '../../analysis/analyze-run.js';
import { sequentialConfig } from '../../config/index.js';
import { CALIBRATION_DEFAULTS, calibrationPlan } from '../../calibrate/plan.js';
import { drawLatentCases, summarizePopulation } from '../../calibrate/latent.js';
import { syntheticResults } from '../../calibrate/synthetic-results.js';
import { createRng } from '../../stats/index.js';
import { decideVerdict } from '../../verdict/decide.js';
import { simulateNullLoops, type NullLoopsInput } from './null-loops.js';

// Reduced counts: the full figure (1,000 loops × 5 rounds × 3 candidates, 200 val cases) is the CLI's default.
function input(over: Partial<NullLoopsInput>): NullLoopsInput {
  const plan = calibrationPlan({ ...CALIBRATION_DEFAULTS, cases: 200, rounds: 500 }, undefined);
  return { loops: 40, rounds: 5, candidatesPerRound: 3, cases: 200, population: plan.input.population, arms: plan.input.arms, gates: plan.input.gates, sequential: sequentialConfig({}), stopAfterNoGain: 0, maxSkillGrowth: 1.25, seed: 5, ...over };
}

describe('calibrate --evolve: null-proposer loops', () => {
  test('greedy uncorrected acceptance accepts no-better edits often; the corrected loop rarely, and only where greedy does too', () => {
    const report = simulateNullLoops(input({}));
    expect(report.screensPerLoop).toBe(15);
    expect(report.dropped).toBe(0);
    expect(report.screenConfidence).toBeCloseTo(1 - 0.05 / 15, 12);
    const { fixed, uncorrected } = report.policies;
    // Seed 5: 12.5% of uncorrected loops accept a no-better edit (15%+ before issue 24 made a
    // gain need the exact McNemar test too); the corrected loop stays ≤ 5%.
    expect(uncorrected.rate).toBeGreaterThanOrEqual(0.1);
    expect(fixed.rate).toBeLessThanOrEqual(0.05);
    expect(fixed.loopsAccepting).toBeLessThanOrEqual(uncorrected.loopsAccepting);
    expect(fixed.ci95[0]).toBeLessThanOrEqual(fixed.rate);
    expect(fixed.ci95[1]).toBeGreaterThanOrEqual(fixed.rate);
  });

  test('sequential screens (the loop\'s default): the correction goes on the anytime-valid CS; no-better edits stay rare, and cost a fraction of fixed screens', () => {
    const report = simulateNullLoops(input({ loops: 30 }));
    expect(report.sequentialFamilyAlpha).toBeCloseTo(0.05, 12);
    expect(report.sequentialScreenConfidence).toBeCloseTo(1 - 0.05 / 15, 12);
    const { sequential, sequential_uncorrected: greedy } = report.policies;
    expect(sequential.rate).toBeLessThanOrEqual(0.05);
    expect(sequential.loopsAccepting).toBeLessThanOrEqual(greedy.loopsAccepting);
    // Every screen either stops at a look or runs the split out; under the null most stop early for futility.
    const stops = Object.values(report.sequentialStops).reduce((a, b) => a + b, 0);
    expect(stops).toBe(report.screensPerLoop * report.loops);
    expect(report.sequentialStops.futility ?? 0).toBeGreaterThan(stops / 2);
    expect(report.tokens.fractionMean).toBeGreaterThan(0.2);
    expect(report.tokens.fractionMean).toBeLessThan(0.8);
    expect(report.tokens.fractionP90).toBeLessThanOrEqual(1);
    expect(report.tokens.loopFractionMean).toBeCloseTo(report.tokens.fractionMean, 6);
  });

  test('with one planned screen the correction is none: both policies decide alike', () => {
    // 1,000 base rounds: what a single screen's 95% interval gets anyway (25 resamples per tail).
    const base = input({ loops: 150, rounds: 1, candidatesPerRound: 1 });
    const report = simulateNullLoops({ ...base, gates: { ...base.gates, bootstrapRounds: 1000 } });
    expect(report.screenConfidence).toBeCloseTo(0.95, 12);
    expect(report.policies.fixed).toEqual(report.policies.uncorrected);
    expect(report.sequentialScreenConfidence).toBeCloseTo(0.95, 12);
    expect(report.policies.sequential).toEqual(report.policies.sequential_uncorrected);
  });

  test('the speed-up holds: a null screen below min_same_budget_gain is never real_evolution, even uncorrected', () => {
    const { input: plan } = calibrationPlan({ ...CALIBRATION_DEFAULTS, cases: 100, rounds: 300 }, undefined);
    const population = { ...plan.population, effect: 0 };
    const cases = drawLatentCases(population, summarizePopulation(population, 2).shiftFactor, 100, createRng(9));
    const rng = createRng(10);
    let below = 0;
    for (let i = 0; i < 150; i += 1) {
      const results = syntheticResults(cases, { ...plan.arms, bestOfN: [1] }, { singles: rng.nextUint32(), bestOfN: rng.nextUint32() });
      const verdict = decideVerdict(analyzeResults(results, { runId: 'r', experiment: 'e', split: 'val', budget: plan.arms.budget, bestOfN: [1], baselineId: 'b', candidateId: 'c', gates: plan.gates, seed: i, nonBindingArms: [] }), new Date(0));
      if ((verdict.same_budget?.delta ?? 0) < plan.gates.minSameBudgetGain) {
        below += 1;
        expect(verdict.verdict).not.toBe('real_evolution');
      }
    }
    expect(below).toBeGreaterThan(100);
  });
});
