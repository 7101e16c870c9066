import { expect, test } from 'vitest';
import { pairedBootstrap } from './bootstrap.js';
import { clusterBootstrap } from './cluster-bootstrap.js';
import { createRng } from './rng.js';
import { meanDifference, ratioOfSums } from './sum-statistics.js';

const statistics = { delta: meanDifference({ candidate: 'b', baseline: 'a' }), ratio: ratioOfSums({ numerator: 'b', denominator: 'a' }) };

test('one case per cluster: bit-identical to the paired bootstrap over cases', () => {
  const rng = createRng(5);
  const a = Array.from({ length: 60 }, () => (rng.next() < 0.6 ? 1 : 0));
  const b = Array.from({ length: 60 }, () => (rng.next() < 0.7 ? 1 : 0));
  const plain = pairedBootstrap({ columns: { a, b }, statistics, rounds: 500, seed: 9 });
  const clustered = clusterBootstrap({ columns: { a, b }, statistics, rounds: 500, seed: 9, clusters: a.map((_, i) => `c${i}`) });
  expect(clustered).toEqual(plain);
});

test('duplicated cases: the cluster bootstrap is as wide as the distinct cases, the case bootstrap is not', () => {
  const rng = createRng(11);
  const distinctA = Array.from({ length: 40 }, () => (rng.next() < 0.5 ? 1 : 0));
  const distinctB = distinctA.map((v) => (rng.next() < 0.2 ? 1 - v : v));
  const m = 10;
  const a = distinctA.flatMap((v) => Array.from({ length: m }, () => v));
  const b = distinctB.flatMap((v) => Array.from({ length: m }, () => v));
  const clusters = a.map((_, i) => Math.floor(i / m));
  const width = (ci: readonly [number, number]): number => ci[1] - ci[0];
  const distinct = pairedBootstrap({ columns: { a: distinctA, b: distinctB }, statistics, rounds: 2000, seed: 3 }).delta;
  const byCase = pairedBootstrap({ columns: { a, b }, statistics, rounds: 2000, seed: 3 }).delta;
  const byCluster = clusterBootstrap({ columns: { a, b }, statistics, rounds: 2000, seed: 3, clusters }).delta;
  expect(byCluster.estimate).toBeCloseTo(distinct.estimate, 12);
  expect(width(byCluster.percentile)).toBeCloseTo(width(distinct.percentile), 1);
  expect(width(byCase.percentile)).toBeLessThan(width(distinct.percentile) / 2);
});
