import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from './bootstrap.js';
import { createRng } from './rng.js';
import { differenceInDifferences, meanDifference } from './sum-statistics.js';

/**
 * Frequentist check of the whole pipeline: simulate many evals whose true paired delta is
 * known and count how often the 95% intervals contain it. 1,000 replications × 1,000
 * rounds × 200 cases (2e8 index draws) keeps this to a few seconds; the binomial standard
 * error of a coverage estimate from 1,000 replications is 0.7 points, so 93–97% is ±3 SE.
 */
describe('paired bootstrap coverage', () => {
  it('95% percentile and BCa intervals cover a known delta of 0.1 in 93–97% of replications', () => {
    const replications = 1000;
    const cases = 200;
    const trueDelta = 0.1;
    const data = createRng(20240611);
    const baseline = new Float64Array(cases);
    const candidate = new Float64Array(cases);
    // Arms C and D repeat A and B with independent draws, so the true DiD is 0.
    const baselineN = new Float64Array(cases);
    const candidateN = new Float64Array(cases);
    const statistics = {
      delta: meanDifference({ candidate: 'candidate', baseline: 'baseline' }),
      did: differenceInDifferences({ a: 'baseline', b: 'candidate', c: 'baselineN', d: 'candidateN' }),
    };
    let percentileHits = 0;
    let bcaHits = 0;
    let didHits = 0;
    for (let rep = 0; rep < replications; rep++) {
      for (let i = 0; i < cases; i++) {
        // Each case has a latent difficulty; the candidate adds exactly 0.1 to its pass
        // probability, so E[candidate − baseline] = 0.1 over the population of cases.
        const p = 0.1 + 0.7 * data.next();
        // Half the cases share one uniform between arms (strong pairing), half do not.
        const shared = data.next() < 0.5;
        const u = data.next();
        baseline[i] = u < p ? 1 : 0;
        candidate[i] = (shared ? u : data.next()) < p + trueDelta ? 1 : 0;
        baselineN[i] = data.next() < p ? 1 : 0;
        candidateN[i] = data.next() < p + trueDelta ? 1 : 0;
      }
      const result = pairedBootstrap({
        columns: { baseline, candidate, baselineN, candidateN },
        statistics,
        rounds: 1000,
        seed: rep,
      });
      const covers = ([lower, upper]: readonly [number, number], truth: number): boolean =>
        lower <= truth && truth <= upper;
      if (covers(result.delta.percentile, trueDelta)) percentileHits++;
      if (covers(result.delta.bca, trueDelta)) bcaHits++;
      if (covers(result.did.percentile, 0)) didHits++;
    }
    const rates = {
      percentile: percentileHits / replications,
      bca: bcaHits / replications,
      did: didHits / replications,
    };
    expect(rates.percentile).toBeGreaterThanOrEqual(0.93);
    expect(rates.percentile).toBeLessThanOrEqual(0.97);
    expect(rates.bca).toBeGreaterThanOrEqual(0.93);
    expect(rates.bca).toBeLessThanOrEqual(0.97);
    expect(rates.did).toBeGreaterThanOrEqual(0.93);
    expect(rates.did).toBeLessThanOrEqual(0.97);
  });
});
