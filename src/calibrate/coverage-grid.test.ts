/**
 * Issue 24, "Must show": the paired pass-rate interval holds its level in every cell of the
 * grid. The short version; bench/coverage-grid.mjs runs the long one (thousands of
 * replications per cell).
 *
 * Unclustered cells are checked exactly (enumerating every outcome: no Monte-Carlo error) and
 * by simulation with 400 replications and fixed seeds (seed 1000 + cell index). A simulated
 * coverage of 400 replications has a standard error of ~1.2 points at 95%, so the exact value
 * is what must be ≥ 93%; the simulation must agree with it within 4 standard errors (it runs
 * the verdict's own interval function, data generation included).
 */
import { describe, expect, test } from 'vitest';
import { pairedBootstrap } from '../stats/bootstrap.js';
import { createRng } from '../stats/rng.js';
import { meanDifference } from '../stats/sum-statistics.js';
import { clusteredGrid, exactTangoCoverage, issueGrid, pairProbabilities, simulateCoverage } from './coverage-grid.js';

const REPLICATIONS = 400;

describe('coverage of the n=1 delta interval', () => {
  test('exact coverage ≥ 93% in every cell of base 0.1/0.5/0.9 × delta 0/0.05/0.1 × 20/50/100 cases × correlation 0/0.5/0.9', () => {
    const cells = issueGrid();
    expect(cells).toHaveLength(81);
    const coverages = cells.map((cell) => exactTangoCoverage(cell));
    const worst = Math.min(...coverages);
    expect(worst).toBeGreaterThanOrEqual(0.93);
    // The worst cells are those with only candidate-only discordance (base 0.9 + 0.1 = 1, or
    // correlation 0.9 at delta 0.1): the score interval is then Wilson's, 93.6% at 100 cases.
    expect(worst).toBeCloseTo(0.9364, 3);
  });

  test(`simulated (${REPLICATIONS} replications per cell, fixed seeds) agrees with the exact coverage`, () => {
    const cells = issueGrid();
    let pooled = 0;
    cells.forEach((cell, index) => {
      const simulated = simulateCoverage(cell, REPLICATIONS, 1000 + index);
      const exact = exactTangoCoverage(cell);
      const standardError = Math.sqrt((exact * (1 - exact)) / REPLICATIONS);
      expect(Math.abs(simulated.coverage - exact)).toBeLessThanOrEqual(4 * standardError + 1e-12);
      pooled += simulated.coverage;
    });
    expect(pooled / cells.length).toBeGreaterThanOrEqual(0.945);
  });

  test('the case bootstrap it replaces under-covers at 20 cases (base 0.9, delta +0.05, correlation 0.9)', () => {
    const cell = { base: 0.9, delta: 0.05, cases: 20, correlation: 0.9 };
    const p = pairProbabilities(cell);
    const rng = createRng(77);
    const baseline = new Float64Array(cell.cases);
    const candidate = new Float64Array(cell.cases);
    let hits = 0;
    for (let rep = 0; rep < REPLICATIONS; rep++) {
      for (let i = 0; i < cell.cases; i++) {
        const u = rng.next();
        baseline[i] = u < p.bothPass + p.baselineOnly ? 1 : 0;
        candidate[i] = u < p.bothPass || (u >= p.bothPass + p.baselineOnly && u < p.bothPass + p.baselineOnly + p.candidateOnly) ? 1 : 0;
      }
      const { delta } = pairedBootstrap({ columns: { baseline, candidate }, statistics: { delta: meanDifference({ candidate: 'candidate', baseline: 'baseline' }) }, rounds: 500, seed: rep });
      if (delta.bca[0] <= p.trueDelta && p.trueDelta <= delta.bca[1]) hits++;
    }
    expect(hits / REPLICATIONS).toBeLessThan(0.8);
    expect(exactTangoCoverage(cell)).toBeGreaterThan(0.95);
  });

  test(`clustered cases with the cluster field given: ≥ 92% in every cell (${REPLICATIONS} replications); ignoring it covers far less`, () => {
    const cells = clusteredGrid();
    let worst = 1;
    let worstIgnoring = 1;
    cells.forEach((cell, index) => {
      const simulated = simulateCoverage(cell, REPLICATIONS, 2000 + index);
      worst = Math.min(worst, simulated.coverage);
      worstIgnoring = Math.min(worstIgnoring, simulated.coverageIgnoringClusters);
    });
    expect(worst).toBeGreaterThanOrEqual(0.92);
    expect(worstIgnoring).toBeLessThan(0.6);
  });
});
