/**
 * The betting confidence sequence (Waudby-Smith & Ramdas 2024) against hand arithmetic, a
 * closed form, an independent grid search, and its promise checked by simulation: the true
 * mean stays inside at every time in at least 1 − α of runs.
 */
import { describe, expect, test } from 'vitest';
import { bettingBound, CapitalProcess, logCapital, PlugInMoments, plugInBet, runningBound, type BetSchedule } from './betting-cs.js';
import { createRng, type Rng } from './rng.js';

const LOG_20 = Math.log(20);

describe('the capital process by hand', () => {
  test('three observations, bets truncated at c/m = 1', () => {
    // m = 1/2, a = 0.05, horizon 10: √(2·ln 20/(10·σ̂²)) ≥ 1.5 at every step, so λ = c/m = 1.
    // K = (1 + ½)(1 − ½)(1 + ½) = 1.125.
    const schedule: BetSchedule = { alpha: 0.05, horizon: 10 };
    expect(Math.exp(logCapital([1, 0, 1], 0.5, 'lower', schedule))).toBeCloseTo(1.125, 14);
    // Upper side at m = 1/2: (1 − ½)(1 + ½)(1 − ½) = 0.375.
    expect(Math.exp(logCapital([1, 0, 1], 0.5, 'upper', schedule))).toBeCloseTo(0.375, 14);
  });

  test('three observations, untruncated plug-in bets', () => {
    // horizon 1000. σ̂²₀ = 1/4.               λ₁ = √(2 ln 20 / 250)
    // x₁ = 1: μ̂₁ = 1.5/2 = 0.75, σ̂²₁ = (0.25 + 0.0625)/2 = 0.15625.   λ₂ = √(2 ln 20 / 156.25)
    // x₂ = 0: μ̂₂ = 1.5/3 = 0.5,  σ̂²₂ = (0.3125 + 0.25)/3 = 0.1875.     λ₃ = √(2 ln 20 / 187.5)
    const l1 = Math.sqrt((2 * LOG_20) / 250);
    const l2 = Math.sqrt((2 * LOG_20) / 156.25);
    const l3 = Math.sqrt((2 * LOG_20) / 187.5);
    const expected = (1 + 0.5 * l1) * (1 - 0.5 * l2) * (1 + 0.5 * l3);
    expect(Math.exp(logCapital([1, 0, 1], 0.5, 'lower', { alpha: 0.05, horizon: 1000 }))).toBeCloseTo(expected, 14);
    expect(l1).toBeCloseTo(0.1548091, 6); // √0.0239659
  });

  test('PlugInMoments follows WSR’s regularized mean and variance', () => {
    const moments = new PlugInMoments();
    expect(moments.variance).toBe(0.25);
    moments.add(1);
    expect(moments.variance).toBeCloseTo(0.15625, 15);
    moments.add(0);
    expect(moments.variance).toBeCloseTo(0.1875, 15);
    expect(plugInBet({ alpha: 0.05, horizon: 1000 }, 0.1875)).toBeCloseTo(Math.sqrt((2 * LOG_20) / 187.5), 15);
  });

  test('the incremental process equals the product recomputed from scratch', () => {
    const rng = createRng(11);
    const xs = Array.from({ length: 500 }, () => rng.int(3) / 2);
    const schedule: BetSchedule = { alpha: 0.025, horizon: 300 };
    const process = new CapitalProcess('upper', 0.55, schedule);
    const moments = new PlugInMoments();
    let naive = 0;
    for (let i = 0; i < xs.length; i += 1) {
      const x = xs[i] as number;
      process.add(x, moments.variance);
      // Independent: the same formula written out with the variance recomputed from the sums.
      const seen = xs.slice(0, i);
      const previous = seen.length === 0 ? 0.25 : varianceOf(seen);
      naive += Math.log(1 - Math.min(Math.sqrt((2 * Math.log(40)) / (300 * previous)), 0.5 / 0.45) * (x - 0.55));
      moments.add(x);
    }
    expect(process.logCapital).toBeCloseTo(naive, 9);
  });
});

describe('bounds', () => {
  test('a constant stream: the capital has a closed form, and the bound is its root', () => {
    // xᵢ = ½ for all i: μ̂ₜ = ½ and σ̂²ₜ = (1/4)/(t + 1), so λᵢ = min(√(8·ln(1/a)·i/n), c/m)
    // and Kₜ(m) = ∏ᵢ (1 + λᵢ(½ − m)) on the lower side.
    const a = 0.05;
    const n = 200;
    const xs = new Array<number>(60).fill(0.5);
    const closed = (m: number): number => {
      let log = 0;
      for (let i = 1; i <= xs.length; i += 1) log += Math.log(1 + Math.min(Math.sqrt((8 * Math.log(1 / a) * i) / n), 0.5 / m) * (0.5 - m));
      return log;
    };
    for (const m of [0.2, 0.35, 0.45, 0.49]) expect(logCapital(xs, m, 'lower', { alpha: a, horizon: n })).toBeCloseTo(closed(m), 12);
    // The bound by an independent grid search on the closed form (step 1e-5).
    let grid = 0;
    for (let m = 0; m < 0.5; m += 1e-5) if (closed(m) >= Math.log(1 / a)) grid = m;
    const bound = bettingBound(xs, 'lower', { alpha: a, horizon: n });
    expect(Math.abs(bound - grid)).toBeLessThan(2e-5);
    expect(bound).toBeLessThan(0.5);
    expect(bound).toBeGreaterThan(0.3);
    // By symmetry the upper bound is its mirror image.
    expect(bettingBound(xs, 'upper', { alpha: a, horizon: n })).toBeCloseTo(1 - bound, 9);
  });

  test('the bound and the capital test say the same thing at every m', () => {
    const rng = createRng(5);
    for (let trial = 0; trial < 40; trial += 1) {
      const xs = Array.from({ length: 30 + rng.int(120) }, () => (rng.next() < 0.6 ? 1 : rng.next() < 0.5 ? 0.5 : 0));
      const schedule: BetSchedule = { alpha: 0.05, horizon: 200 };
      for (const side of ['lower', 'upper'] as const) {
        const bound = bettingBound(xs, side, schedule);
        const m = rng.next();
        const ruledOut = logCapital(xs, m, side, schedule) >= Math.log(20);
        // Lower side: m is ruled out exactly when it lies below the bound (upper: above).
        if (Math.abs(m - bound) > 1e-9) expect(ruledOut).toBe(side === 'lower' ? m < bound : m > bound);
      }
    }
  });

  test('the upper side is the lower side of 1 − x at 1 − m', () => {
    const rng = createRng(9);
    const xs = Array.from({ length: 80 }, () => rng.next());
    const schedule: BetSchedule = { alpha: 0.1, horizon: 80 };
    for (const m of [0.1, 0.4, 0.7]) expect(logCapital(xs, m, 'upper', schedule)).toBeCloseTo(logCapital(xs.map((x) => 1 - x), 1 - m, 'lower', schedule), 12);
  });

  test('runningBound is the best bound over the looks, and is 0 or 1 before any evidence', () => {
    const rng = createRng(3);
    const xs = Array.from({ length: 100 }, () => (rng.next() < 0.8 ? 1 : 0));
    const schedule: BetSchedule = { alpha: 0.05, horizon: 100 };
    const looks = [20, 40, 60, 80, 100];
    const each = looks.map((t) => bettingBound(xs, 'lower', schedule, t));
    expect(runningBound(xs, 'lower', schedule, looks)).toBe(Math.max(...each));
    expect(runningBound(xs, 'lower', schedule, [])).toBe(0);
    expect(bettingBound([], 'upper', schedule)).toBe(1);
    expect(() => runningBound(xs, 'lower', schedule, [101])).toThrow(RangeError);
  });

  test('bad settings are refused', () => {
    expect(() => new CapitalProcess('lower', 0.5, { alpha: 0, horizon: 10 })).toThrow(RangeError);
    expect(() => new CapitalProcess('lower', 0.5, { alpha: 0.05, horizon: 0 })).toThrow(RangeError);
    expect(() => new CapitalProcess('lower', 1.5, { alpha: 0.05, horizon: 10 })).toThrow(RangeError);
    expect(() => new CapitalProcess('lower', 0.5, { alpha: 0.05, horizon: 10, truncation: 1 })).toThrow(RangeError);
  });
});

describe('coverage under optional stopping (simulation, fixed seeds)', () => {
  // Every time t ≤ 300 is a look: the true mean must stay inside at all of them.
  const runs = 1000;
  const length = 300;
  const distributions: Array<{ name: string; mean: number; draw: (rng: Rng) => number }> = [
    { name: 'Bernoulli(0.3)', mean: 0.3, draw: (rng) => (rng.next() < 0.3 ? 1 : 0) },
    // A paired difference d ∈ {−1, 0, 1} with P = (0.15, 0.6, 0.25), mapped to (d + 1)/2: mean (0.1 + 1)/2.
    { name: 'paired {0, ½, 1}', mean: 0.55, draw: (rng) => { const u = rng.next(); return u < 0.15 ? 0 : u < 0.75 ? 0.5 : 1; } },
    { name: 'uniform[0, 1]', mean: 0.5, draw: (rng) => rng.next() },
  ];
  test.each(distributions)('$name: two-sided 95% sequence misses the true mean in ≤ 5% of runs', ({ mean, draw }) => {
    const rng = createRng(2024);
    const schedule: BetSchedule = { alpha: 0.025, horizon: length };
    let misses = 0;
    for (let run = 0; run < runs; run += 1) {
      const lower = new CapitalProcess('lower', mean, schedule);
      const upper = new CapitalProcess('upper', mean, schedule);
      const moments = new PlugInMoments();
      let missed = false;
      for (let t = 0; t < length && !missed; t += 1) {
        const x = draw(rng);
        lower.add(x, moments.variance);
        upper.add(x, moments.variance);
        moments.add(x);
        // The mean leaves the sequence exactly when one side's capital at it reaches 1/a.
        missed = lower.rejects || upper.rejects;
      }
      if (missed) misses += 1;
    }
    // Ville bounds the miss rate by α = 5%; Monte-Carlo SE at 1,000 runs is ≤ 0.7 points.
    expect(misses / runs).toBeLessThanOrEqual(0.05);
  });

  test('a one-sided 80% bound (a = 0.2) is crossed in ≤ 20% of runs at its boundary mean', () => {
    const rng = createRng(77);
    const schedule: BetSchedule = { alpha: 0.2, horizon: 200 };
    let crossed = 0;
    for (let run = 0; run < runs; run += 1) {
      const process = new CapitalProcess('lower', 0.54, schedule);
      const moments = new PlugInMoments();
      for (let t = 0; t < 200 && !process.rejects; t += 1) {
        const u = rng.next();
        // Mean exactly 0.54 on {0, ½, 1}: P(1) − P(0) = 0.08.
        const x = u < 0.16 ? 0 : u < 0.76 ? 0.5 : 1;
        process.add(x, moments.variance);
        moments.add(x);
      }
      if (process.rejects) crossed += 1;
    }
    expect(crossed / runs).toBeLessThanOrEqual(0.2);
  });
});

function varianceOf(seen: readonly number[]): number {
  // σ̂²ₜ = (1/4 + Σⱼ (xⱼ − μ̂ⱼ)²)/(t + 1) with μ̂ⱼ the regularized mean after j observations.
  let sum = 0.5;
  let squares = 0.25;
  seen.forEach((x, j) => {
    sum += x;
    squares += (x - sum / (j + 2)) ** 2;
  });
  return squares / (seen.length + 1);
}
