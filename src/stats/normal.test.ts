import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile } from './normal.js';

// Φ references: mpmath.ncdf at 40 digits. Φ⁻¹ references: scipy.special.ndtri (Cephes).
const CDF: Array<[number, number]> = [
  [-30, 4.9067139271481871e-198],
  [-10, 7.6198530241605261e-24],
  [-8, 6.2209605742717841e-16],
  [-5, 2.8665157187919391e-7],
  [-3, 0.0013498980316300945],
  [-1.96, 0.024997895148220436],
  [-1, 0.15865525393145705],
  [-0.5, 0.3085375387259869],
  [0, 0.5],
  [0.3, 0.61791142218895263],
  [1, 0.84134474606854295],
  [2, 0.97724986805182079],
  [3, 0.99865010196836991],
  [7, 0.99999999999872019],
  [7.5, 0.99999999999996809],
];

const QUANTILE: Array<[number, number]> = [
  [1e-300, -37.0470962993612],
  [1e-20, -9.262340089798409],
  [1e-10, -6.361340902404056],
  [1e-5, -4.264890793922825],
  [0.001, -3.090232306167813],
  [0.025, -1.9599639845400545],
  [0.05, -1.6448536269514729],
  [0.1, -1.2815515655446004],
  [0.3, -0.5244005127080409],
  [0.5, 0],
  [0.7, 0.5244005127080407],
  [0.9, 1.2815515655446004],
  [0.975, 1.959963984540054],
  [0.999, 3.090232306167813],
  [0.9999999, 5.199337582290661],
];

describe('normalCdf', () => {
  it.each(CDF)('Φ(%d) matches scipy to 1e-14 relative', (x, expected) => {
    const relative = Math.abs(normalCdf(x) - expected) / expected;
    expect(relative).toBeLessThan(1e-14);
  });

  it('saturates in the far tails and passes NaN through', () => {
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normalCdf(Number.NaN)).toBeNaN();
  });
});

describe('normalQuantile', () => {
  it.each(QUANTILE)('Φ⁻¹(%d) matches scipy to 1e-14 relative', (p, expected) => {
    const value = normalQuantile(p);
    expect(Math.abs(value - expected)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(expected)));
  });

  it('inverts normalCdf across the range', () => {
    // Above 0, Φ(x) is rounded near 1 (spacing 1.1e-16), which caps the round trip's accuracy.
    for (let x = -8; x <= 5; x += 0.37) {
      expect(normalQuantile(normalCdf(x))).toBeCloseTo(x, x <= 0 ? 12 : 9);
    }
  });

  it('maps 0 and 1 to ±∞ and rejects p outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(() => normalQuantile(-0.1)).toThrow(RangeError);
    expect(() => normalQuantile(1.1)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });
});
