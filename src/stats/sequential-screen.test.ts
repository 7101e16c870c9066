import { describe, expect, test } from 'vitest';
import { createRng } from './rng.js';
import { decideLook, PairedScreen, type ScreenEvidence, type ScreenLevels } from './sequential-screen.js';

const levels: ScreenLevels = { minGain: 0.08, confidence: 0.95, gainConfidence: 0.85, futilityConfidence: 0.65, horizon: 200 };

describe('PairedScreen', () => {
  test('identical arms (every d = 0): the futility capital has a closed form and decides at 40 cases', () => {
    // x = ½ always, so σ̂²ᵢ₋₁ = (1/4)/i and λᵢ = min(√(8·ln(1/a)·i/n), c/(1 − m)) with a = 0.35,
    // n = 200, m = (0.08 + 1)/2 = 0.54; each factor is 1 − λᵢ(½ − 0.54) = 1 + 0.04·λᵢ.
    const logCapital = (t: number): number => {
      let log = 0;
      for (let i = 1; i <= t; i += 1) log += Math.log(1 + 0.04 * Math.min(Math.sqrt((8 * Math.log(1 / 0.35) * i) / 200), 0.5 / 0.46));
      return log;
    };
    const screen = new PairedScreen(levels);
    for (let i = 0; i < 20; i += 1) screen.add(0);
    expect(screen.look().futile).toBe(logCapital(20) >= Math.log(1 / 0.35));
    expect(screen.evidence().futile).toBe(false);
    for (let i = 0; i < 20; i += 1) screen.add(0);
    const at40 = screen.look();
    expect(logCapital(40)).toBeGreaterThan(Math.log(1 / 0.35));
    expect(at40).toMatchObject({ cases: 40, mean: 0, futile: true, aboveZero: false, belowZero: false, gainReached: false });
    // The bounds say the same: the futility bound is below g, the CS straddles 0 symmetrically.
    const bounds = screen.bounds();
    expect(bounds.futilityBound).toBeLessThan(0.08);
    expect(bounds.cs[0]).toBeCloseTo(-bounds.cs[1], 9);
    expect(bounds.cs[0]).toBeLessThan(0);
  });

  test('evidence is read only at looks and then stays decided', () => {
    const screen = new PairedScreen(levels);
    for (let i = 0; i < 60; i += 1) screen.add(i % 3 === 0 ? 0 : 1);
    expect(screen.evidence().aboveZero).toBe(false); // not looked at yet
    const first = screen.look();
    expect(first.aboveZero && first.gainReached).toBe(true);
    // A run of losses afterwards cannot undo what a look decided (running intersection).
    for (let i = 0; i < 60; i += 1) screen.add(-1);
    const second = screen.look();
    expect(second.aboveZero).toBe(true);
    expect(second.mean).toBeLessThan(0);
    const history = screen.history();
    expect(history.map((h) => h.cases)).toEqual([60, 120]);
    expect(history[1]?.cs[0]).toBe(history[0]?.cs[0]);
  });

  test('each piece of evidence agrees with its bound, on random streams', () => {
    const rng = createRng(42);
    for (let trial = 0; trial < 30; trial += 1) {
      const shift = rng.next() * 0.6 - 0.3;
      const screen = new PairedScreen({ ...levels, horizon: 120 });
      let evidence: ScreenEvidence | undefined;
      for (let i = 1; i <= 120; i += 1) {
        const u = rng.next();
        screen.add(u < 0.25 - shift / 2 ? -1 : u < 0.75 - shift / 2 ? 0 : 1);
        if (i % 20 === 0) evidence = screen.look();
      }
      const bounds = screen.bounds();
      expect(evidence?.aboveZero).toBe(bounds.cs[0] > 0);
      expect(evidence?.belowZero).toBe(bounds.cs[1] < 0);
      expect(evidence?.gainReached).toBe(bounds.gainBound > 0.08);
      expect(evidence?.futile).toBe(bounds.futilityBound < 0.08);
    }
  });

  test('refuses a difference outside [−1, 1] and levels outside (0, 1)', () => {
    expect(() => new PairedScreen(levels).add(1.5)).toThrow(RangeError);
    expect(() => new PairedScreen({ ...levels, gainConfidence: 1 })).toThrow(RangeError);
    expect(() => new PairedScreen({ ...levels, horizon: 0 })).toThrow(RangeError);
  });
});

describe('decideLook', () => {
  const none: ScreenEvidence = { cases: 60, mean: 0, aboveZero: false, belowZero: false, gainReached: false, futile: false };
  const gain: ScreenEvidence = { ...none, mean: 0.2, aboveZero: true, gainReached: true };
  const base = { singles: none, bestOfN: undefined, withinGates: true, exhausted: false, minGain: 0.08 };
  test.each([
    { name: 'undecided → go on', look: base, reason: undefined, regression: false },
    { name: 'gain decided, gates hold → efficacy', look: { ...base, singles: gain }, reason: 'efficacy', regression: false },
    { name: 'gain decided but tokens over the gate → go on', look: { ...base, singles: gain, withinGates: false }, reason: undefined, regression: false },
    { name: 'bounds decided but the point estimate below g → go on', look: { ...base, singles: { ...gain, mean: 0.07 } }, reason: undefined, regression: false },
    { name: 'n=1 futile → futility', look: { ...base, singles: { ...none, futile: true } }, reason: 'futility', regression: false },
    { name: 'n=1 decided below 0 → futility, regression', look: { ...base, singles: { ...none, mean: -0.3, futile: true, belowZero: true } }, reason: 'futility', regression: true },
    { name: 'n=1 futile, selected@N gain decided → leakage', look: { ...base, singles: { ...none, futile: true }, bestOfN: gain }, reason: 'leakage', regression: false },
    { name: 'n=1 undecided, selected@N gain decided → go on', look: { ...base, bestOfN: gain }, reason: undefined, regression: false },
    { name: 'nothing decided at the last case → exhausted', look: { ...base, exhausted: true }, reason: 'exhausted', regression: false },
    { name: 'efficacy at the last case is efficacy', look: { ...base, singles: gain, exhausted: true }, reason: 'efficacy', regression: false },
  ])('$name', ({ look, reason, regression }) => {
    const decision = decideLook(look);
    expect(decision.reason).toBe(reason);
    expect(decision.stop).toBe(reason !== undefined);
    expect(decision.regression).toBe(regression);
  });
});
