import { describe, expect, test } from 'vitest';
import { createRng } from '../stats/index.js';
import { betaShapes, betaVariate, drawLatentCases, gammaVariate, shiftProbability, summarizePopulation, type Population } from './latent.js';

const population: Population = { baselinePass: 0.6, spread: 0.25, effect: 0.1, categories: 4, tokensPerPath: 1500, latencyMs: 2000 };

function moments(values: readonly number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

describe('latent population', () => {
  test.each([
    [0.5, 0.5],
    [2.5, 1],
    [9, 1],
  ])('Gamma(%d) has mean and variance equal to its shape', (shape) => {
    const rng = createRng(11);
    const { mean, sd } = moments(Array.from({ length: 40_000 }, () => gammaVariate(rng, shape)));
    expect(mean).toBeCloseTo(shape, 1);
    expect(sd ** 2 / shape).toBeGreaterThan(0.95);
    expect(sd ** 2 / shape).toBeLessThan(1.05);
  });

  test.each([
    [0.6, 0.25],
    [0.3, 0.1],
    [0.9, 0.2],
  ])('Beta with mean %d and SD %d reproduces both', (mean, spread) => {
    const { a, b } = betaShapes(mean, spread);
    const rng = createRng(3);
    const drawn = moments(Array.from({ length: 40_000 }, () => betaVariate(rng, a, b)));
    expect(Math.abs(drawn.mean - mean)).toBeLessThan(0.005);
    expect(Math.abs(drawn.sd - spread)).toBeLessThan(0.005);
  });

  test('rejects a spread the pass rate cannot have', () => {
    expect(() => betaShapes(0.6, 0.5)).toThrow(RangeError);
    expect(() => betaShapes(1, 0.1)).toThrow(RangeError);
  });

  test('the logit shift is exact at 0 and 1 and the identity at θ = 0', () => {
    expect(shiftProbability(0, 5)).toBe(0);
    expect(shiftProbability(1, 5)).toBe(1);
    expect(shiftProbability(0.37, 1)).toBeCloseTo(0.37, 15);
    const logit = (p: number): number => Math.log(p / (1 - p));
    expect(logit(shiftProbability(0.3, Math.exp(0.7)))).toBeCloseTo(logit(0.3) + 0.7, 12);
  });

  test('θ is solved so the population mean delta is the effect', () => {
    const summary = summarizePopulation(population, 5);
    const cases = drawLatentCases(population, summary.shiftFactor, 30_000, createRng(6));
    const delta = cases.reduce((acc, c) => acc + c.candidateP - c.baselineP, 0) / cases.length;
    expect(Math.abs(delta - 0.1)).toBeLessThan(0.004);
    expect(summary.logitShift).toBeGreaterThan(0);
    expect(summarizePopulation({ ...population, effect: 0 }, 5)).toMatchObject({ shiftFactor: 1, logitShift: 0 });
    expect(() => summarizePopulation({ ...population, effect: 0.45 }, 5)).toThrow(/out of reach/);
  });

  test('sdDiff matches the SD of simulated paired 0/1 differences', () => {
    const summary = summarizePopulation(population, 5);
    const rng = createRng(8);
    const cases = drawLatentCases(population, summary.shiftFactor, 40_000, rng);
    const diffs = cases.map((c) => (rng.next() < c.candidateP ? 1 : 0) - (rng.next() < c.baselineP ? 1 : 0));
    expect(Math.abs(moments(diffs).sd - summary.sdDiff)).toBeLessThan(0.01);
  });

  test('case i does not depend on how many cases are drawn', () => {
    const few = drawLatentCases(population, 2, 10, createRng(9));
    const many = drawLatentCases(population, 2, 50, createRng(9));
    expect(many.slice(0, 10)).toEqual(few);
    expect(new Set(many.map((c) => c.category))).toEqual(new Set(['cat-0', 'cat-1', 'cat-2', 'cat-3']));
  });
});
