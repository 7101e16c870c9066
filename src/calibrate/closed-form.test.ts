import { expect, test } from 'vitest';
import { normalQuantile } from '../stats/index.js';
import { closedFormCases } from './closed-form.js';

const base = { sdDiff: 0.58, minGain: 0.08, confidence: 0.95, power: 0.8 };

test('CI rule alone is the paired-z count; the min-gain rule dominates near the min gain', () => {
  const z = normalQuantile(0.975) + normalQuantile(0.8);
  const { ciOnly, withGainGate } = closedFormCases({ ...base, effect: 0.1 });
  expect(ciOnly).toBe(Math.ceil(((z * 0.58) / 0.1) ** 2));
  // (z_0.8 · σ / (δ − g))² = (0.8416 · 0.58 / 0.02)² ≈ 596 > 264.
  expect(withGainGate).toBe(Math.ceil(((normalQuantile(0.8) * 0.58) / 0.02) ** 2));
  expect(withGainGate!).toBeGreaterThan(ciOnly!);
});

test('far above the min gain both rules agree', () => {
  const { ciOnly, withGainGate } = closedFormCases({ ...base, effect: 0.3 });
  expect(withGainGate).toBe(ciOnly);
});

test('no count for an effect at or below the min gain, none at all for no effect', () => {
  expect(closedFormCases({ ...base, effect: 0.08 }).withGainGate).toBeNull();
  expect(closedFormCases({ ...base, effect: 0 })).toEqual({ ciOnly: null, withGainGate: null });
});
