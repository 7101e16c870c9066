import { expect, test } from 'vitest';
import { clusterLayout, clusteredMcNemarP, designEffect, largestDesignEffect, pairedDesignEffect } from './cluster-design.js';
import { normalCdf } from './normal.js';

test('singleton clusters: design effect exactly 1, and the clustered McNemar is the McNemar χ²', () => {
  const values = [1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 1];
  const layout = clusterLayout(values.map((_, i) => `c${i}`));
  expect(designEffect(values, layout)).toBeCloseTo(1, 12);
  const baseline = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0];
  const candidate = [1, 1, 1, 1, 1, 1, 0, 1, 0, 1];
  // b = 1 baseline-only, c = 5 candidate-only: χ² = (c − b)²/(b + c) = 16/6.
  const p = clusteredMcNemarP(baseline, candidate, clusterLayout(baseline.map((_, i) => i)));
  expect(p).toBeCloseTo(2 * (1 - normalCdf(Math.sqrt(16 / 6))), 12);
});

test('each value copied m times: design effect ≈ m (CR1 over s²/n), capped at the largest', () => {
  const distinct = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1];
  const m = 5;
  const values = distinct.flatMap((v) => Array.from({ length: m }, () => v));
  const layout = clusterLayout(values.map((_, i) => Math.floor(i / m)));
  expect(largestDesignEffect(layout)).toBe(m);
  const effect = designEffect(values, layout);
  // Exact: CR1 G/(G−1) · Σ E_g² / n² over s²/n — for copies, m·(n−1)/n·G/(G−1).
  const n = values.length;
  const G = distinct.length;
  expect(effect).toBeCloseTo((m * (n - 1) * G) / (n * (G - 1)), 9);
});

test('paired design effect: floored at 1, the largest when discordance is in too few clusters', () => {
  const size = 4;
  const clusters = 10;
  const keys = Array.from({ length: size * clusters }, (_, i) => Math.floor(i / size));
  const layout = clusterLayout(keys);
  const baseline = keys.map((g) => (g % 2 === 0 ? 1 : 0));
  const concordant = [...baseline];
  expect(pairedDesignEffect(baseline, concordant, layout)).toBe(size);
  // Discordance in 2 clusters only: not estimable, worst case.
  const twoClusters = baseline.map((v, i) => ((keys[i] as number) < 2 ? 1 - v : v));
  expect(pairedDesignEffect(baseline, twoClusters, layout)).toBe(size);
  // Discordance scattered over every cluster, one case each, arms unclustered: ≈ 1 (floored).
  const scatteredBaseline = keys.map((_, i) => (i % 3 === 0 ? 1 : 0));
  const scattered = scatteredBaseline.map((v, i) => (i % size === 1 ? 1 - v : v));
  const effect = pairedDesignEffect(scatteredBaseline, scattered, layout);
  expect(effect).toBeGreaterThanOrEqual(1);
  expect(effect).toBeLessThan(2);
});
