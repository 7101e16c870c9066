import { describe, expect, test } from 'vitest';
import { armMetrics } from '../analysis/arm-metrics.js';
import { createRng } from '../stats/index.js';
import { drawLatentCases, summarizePopulation, type LatentCase, type Population } from './latent.js';
import { syntheticResults, type ArmModel } from './synthetic-results.js';

const population: Population = { baselinePass: 0.6, spread: 0.25, effect: 0.1, categories: 4, tokensPerPath: 1500, latencyMs: 2000 };
const model: ArmModel = { bestOfN: [1, 4, 8], budget: 200_000, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 };
const seeds = { singles: 21, bestOfN: 22 };

function latent(count: number, effect = population.effect): LatentCase[] {
  const summary = summarizePopulation({ ...population, effect }, 1);
  return drawLatentCases({ ...population, effect }, summary.shiftFactor, count, createRng(2));
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

describe('syntheticResults', () => {
  const cases = latent(20_000);
  const results = syntheticResults(cases, model, seeds);
  const metrics = new Map(armMetrics(results).map((m) => [m.arm, m]));
  const arm = (name: string) => metrics.get(name)!;

  test('one record per case and arm, every arm on the same cases', () => {
    expect(results).toHaveLength(20_000 * 6);
    expect([...metrics.keys()].sort()).toEqual(['baseline_best_of_4', 'baseline_best_of_8', 'baseline_single', 'candidate_best_of_4', 'candidate_best_of_8', 'candidate_single']);
    for (const m of metrics.values()) expect(m.cases).toBe(20_000);
  });

  test('realized n=1 pass rates match the latent means (baseline rate, + effect)', () => {
    // Binomial SE at 20,000 cases is ~0.0035 around the latent sample mean.
    expect(Math.abs(arm('baseline_single').selectedAtN - mean(cases.map((c) => c.baselineP)))).toBeLessThan(0.012);
    expect(Math.abs(arm('candidate_single').selectedAtN - mean(cases.map((c) => c.candidateP)))).toBeLessThan(0.012);
    expect(Math.abs(arm('baseline_single').selectedAtN - 0.6)).toBeLessThan(0.015);
    expect(Math.abs(arm('candidate_single').selectedAtN - arm('baseline_single').selectedAtN - 0.1)).toBeLessThan(0.02);
  });

  test.each([4, 8])('n=%d: pass@N is 1 − (1 − p)^N, the oracle selects it, pass@1 is p', (n) => {
    for (const [variant, pick] of [['baseline', (c: LatentCase) => c.baselineP], ['candidate', (c: LatentCase) => c.candidateP]] as const) {
      const m = arm(`${variant}_best_of_${n}`);
      expect(Math.abs((m.passAtN ?? Number.NaN) - mean(cases.map((c) => 1 - (1 - pick(c)) ** n)))).toBeLessThan(0.012);
      expect(m.selectedAtN).toBe(m.passAtN);
      expect(Math.abs((m.passAt1 ?? Number.NaN) - mean(cases.map(pick)))).toBeLessThan(0.01);
    }
  });

  test('a random selector (accuracy 0) makes selected@N the per-path rate', () => {
    const random = armMetrics(syntheticResults(cases, { ...model, bestOfN: [1, 8], selectorAccuracy: 0 }, seeds));
    const c = random.find((m) => m.arm === 'baseline_best_of_8')!;
    expect(Math.abs(c.selectedAtN - mean(cases.map((x) => x.baselineP)))).toBeLessThan(0.012);
  });

  test('tokens and latency: same distribution for both variants, N paths cost ~N×, a ratio scales the candidate', () => {
    const a = arm('baseline_single');
    const b = arm('candidate_single');
    expect(Math.abs(a.meanTokensPerCase! / b.meanTokensPerCase! - 1)).toBeLessThan(0.03);
    expect(Math.abs(a.latencyP95Ms! / b.latencyP95Ms! - 1)).toBeLessThan(0.05);
    // Lognormal median 1500 with case log-SD 0.5 and path log-SD 0.2: mean 1500·e^{(0.25+0.04)/2}.
    expect(a.meanTokensPerCase! / (1500 * Math.exp(0.145))).toBeGreaterThan(0.97);
    expect(a.meanTokensPerCase! / (1500 * Math.exp(0.145))).toBeLessThan(1.03);
    expect(arm('baseline_best_of_8').meanTokensPerCase! / a.meanTokensPerCase!).toBeCloseTo(8, 0);
    expect(arm('baseline_best_of_8').latencyP50Ms!).toBeGreaterThan(a.latencyP50Ms!);
    const costly = armMetrics(syntheticResults(cases.slice(0, 5000), { ...model, bestOfN: [1], candidateTokenRatio: 1.5 }, seeds));
    const ratio = costly[1]!.meanTokensPerCase! / costly[0]!.meanTokensPerCase!;
    expect(ratio).toBeGreaterThan(1.45);
    expect(ratio).toBeLessThan(1.55);
  });

  test('tokens never exceed B: the cap marks budget_exhausted instead', () => {
    const tight = syntheticResults(cases.slice(0, 2000), { ...model, budget: 9000 }, seeds);
    expect(tight.every((r) => (r.total_tokens ?? 0) <= 9000 && !r.over_budget)).toBe(true);
    expect(tight.some((r) => r.budget_exhausted)).toBe(true);
  });

  test('deterministic, and the Best-of-N arms do not change the n=1 draws', () => {
    const some = cases.slice(0, 300);
    expect(syntheticResults(some, model, seeds)).toEqual(syntheticResults(some, model, seeds));
    const singlesOnly = syntheticResults(some, { ...model, bestOfN: [1] }, seeds);
    expect(syntheticResults(some, model, seeds).filter((r) => r.n === 1)).toEqual(singlesOnly);
  });
});
