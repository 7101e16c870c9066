import { describe, expect, it } from 'vitest';
import { casesForPower, minimumDetectableEffect, pairedPower } from './power.js';

// z_{0.975} + z_{0.8} = 1.959963984540054 + 0.8416212335729143
const Z_SUM = 2.8015852181129683;

describe('casesForPower', () => {
  it('uses ((z_{1−α/2} + z_power)·σ/δ)² with σ = sdDiff: δ = 0.1, σ = 1 → 784.89 → 785', () => {
    expect(((Z_SUM * 1) / 0.1) ** 2).toBeCloseTo(784.8879734349086, 9);
    expect(casesForPower({ delta: 0.1, sdDiff: 1 })).toBe(785);
    expect(casesForPower({ delta: -0.1, sdDiff: 1 })).toBe(785);
  });

  it('honours alpha and power: α = 0.01, power 0.9, σ = 0.4, δ = 0.05 → 952.28 → 953', () => {
    expect(casesForPower({ delta: 0.05, sdDiff: 0.4, alpha: 0.01, power: 0.9 })).toBe(953);
  });

  it('uses Connor (1987) with a discordant rate: ψ = 0.3, δ = 0.1 → 233.09 → 234', () => {
    expect(casesForPower({ delta: 0.1, discordantRate: 0.3 })).toBe(234);
  });

  it('is Infinity at δ = 0 and rejects impossible designs', () => {
    expect(casesForPower({ delta: 0, sdDiff: 1 })).toBe(Number.POSITIVE_INFINITY);
    expect(() => casesForPower({ delta: 0.4, discordantRate: 0.3 })).toThrow(RangeError);
    expect(() => casesForPower({ delta: 0.1, sdDiff: -1 })).toThrow(RangeError);
    expect(() => casesForPower({ delta: 0.1, sdDiff: 1, alpha: 0 })).toThrow(RangeError);
    expect(() => casesForPower({ delta: 0.1, sdDiff: 1, power: 0.3 })).toThrow(RangeError);
  });
});

describe('pairedPower', () => {
  it('matches Φ(δ√n/σ − z) + Φ(−δ√n/σ − z): n = 400, δ = 0.05, σ = 0.5 → 0.51600527', () => {
    expect(pairedPower({ n: 400, delta: 0.05, sdDiff: 0.5 })).toBeCloseTo(0.5160052739761748, 12);
  });

  it('matches the Connor form: n = 300, δ = 0.08, ψ = 0.2 → 0.87638165', () => {
    expect(pairedPower({ n: 300, delta: 0.08, discordantRate: 0.2 })).toBeCloseTo(0.8763816467219051, 12);
  });

  it('equals alpha when there is no effect', () => {
    expect(pairedPower({ n: 100, delta: 0, sdDiff: 0.7 })).toBeCloseTo(0.05, 14);
    expect(pairedPower({ n: 100, delta: 0, sdDiff: 0.7, alpha: 0.1 })).toBeCloseTo(0.1, 14);
  });

  it('inverts casesForPower: the returned n reaches the power and n − 1 does not', () => {
    for (const design of [
      { delta: 0.1, sdDiff: 1 },
      { delta: 0.03, sdDiff: 0.45 },
      { delta: 0.1, discordantRate: 0.3 },
      { delta: 0.05, discordantRate: 0.12 },
    ]) {
      const n = casesForPower(design);
      expect(pairedPower({ ...design, n })).toBeGreaterThanOrEqual(0.8);
      expect(pairedPower({ ...design, n: n - 1 })).toBeLessThan(0.8);
    }
  });
});

describe('minimumDetectableEffect', () => {
  it('is (z_{1−α/2} + z_power)·σ/√n: n = 400, σ = 0.5 → 0.0700396', () => {
    expect(minimumDetectableEffect({ n: 400, sdDiff: 0.5 })).toBeCloseTo(0.07003963045282421, 14);
  });

  it('brackets casesForPower', () => {
    expect(minimumDetectableEffect({ n: 785, sdDiff: 1 })).toBeLessThanOrEqual(0.1);
    expect(minimumDetectableEffect({ n: 784, sdDiff: 1 })).toBeGreaterThan(0.1);
  });
});
