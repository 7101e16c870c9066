import { describe, expect, test } from 'vitest';
import { analyzeResults } from '../../analysis/analyze-run.js';
import { CALIBRATION_DEFAULTS, calibrationPlan } from '../../calibrate/plan.js';
import { drawLatentCases, summarizePopulation } from '../../calibrate/latent.js';
import { syntheticResults } from '../../calibrate/synthetic-results.js';
import { createRng } from '../../stats/index.js';
import { decideVerdict } from '../../verdict/decide.js';
import { simulateNullLoops, type NullLoopsInput } from './null-loops.js';

// Reduced counts: the full figure (1,000 loops × 5 rounds × 3 candidates, 200 val cases) is the CLI's default.
function input(over: Partial<NullLoopsInput>): NullLoopsInput {
  const plan = calibrationPlan({ ...CALIBRATION_DEFAULTS, cases: 200, rounds: 500 }, undefined);
  return { loops: 40, rounds: 5, candidatesPerRound: 3, cases: 200, population: plan.input.population, arms: plan.input.arms, gates: plan.input.gates, stopAfterNoGain: 0, maxSkillGrowth: 1.25, seed: 5, ...over };
}

describe('calibrate --evolve: null-proposer loops', () => {
  test('greedy uncorrected acceptance accepts no-better edits often; the corrected loop rarely, and only where greedy does too', () => {
    const report = simulateNullLoops(input({}));
    expect(report.screensPerLoop).toBe(15);
    expect(report.dropped).toBe(0);
    expect(report.screenConfidence).toBeCloseTo(1 - 0.05 / 15, 12);
    expect(report.uncorrected.rate).toBeGreaterThanOrEqual(0.15);
    expect(report.corrected.rate).toBeLessThanOrEqual(0.05);
    expect(report.corrected.loopsAccepting).toBeLessThanOrEqual(report.uncorrected.loopsAccepting);
    expect(report.corrected.ci95[0]).toBeLessThanOrEqual(report.corrected.rate);
    expect(report.corrected.ci95[1]).toBeGreaterThanOrEqual(report.corrected.rate);
  });

  test('with one planned screen the correction is none: both policies decide alike', () => {
    // 1,000 base rounds: what a single screen's 95% interval gets anyway (25 resamples per tail).
    const base = input({ loops: 150, rounds: 1, candidatesPerRound: 1 });
    const report = simulateNullLoops({ ...base, gates: { ...base.gates, bootstrapRounds: 1000 } });
    expect(report.screenConfidence).toBeCloseTo(0.95, 12);
    expect(report.corrected).toEqual(report.uncorrected);
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
