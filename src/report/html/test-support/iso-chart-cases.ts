/**
 * Arms shaped like the shipped examples' (figures from real runs), for the iso-budget chart's
 * tests: where points sit close together or on top of each other, labels must still part.
 */
import type { ArmMetrics } from '../../../analysis/arm-metrics.js';

interface ArmShape {
  variant: 'baseline' | 'candidate';
  n: number;
  /** pass@1 at n=1, selected@N at n=N. */
  rate: number;
  /** pass@N oracle (n > 1). */
  oracle?: number;
  tokens: number;
}

function arm(shape: ArmShape): ArmMetrics {
  const name = shape.n === 1 ? `${shape.variant}_single` : `${shape.variant}_best_of_${shape.n}`;
  return {
    arm: name, variant: shape.variant, n: shape.n, cases: 200, units: 200,
    passAt1: shape.rate, passAtK: { 1: shape.rate }, passAtN: shape.oracle ?? shape.rate, selectedAtN: shape.rate,
    meanTokensPerCase: shape.tokens, tokensPerSuccess: shape.tokens / Math.max(shape.rate, 0.01), meanOutputTokens: 10,
    latencyP50Ms: 100, latencyP95Ms: 150, budgetExhaustedRate: 0, callsMissingUsage: 0, unitsMissingTokens: 0, overBudgetUnits: 0,
    calls: 200, retries: 0, errors: { paths: 200 * shape.n, errors: 0, provider: 0, scorer: 0, timeout: 0, first: undefined },
    costUsd: null, costPerCaseUsd: null, costPerSuccessUsd: null, unitsMissingCost: 0,
  };
}

export interface IsoChartCase {
  name: string;
  arms: ArmMetrics[];
  budget: number;
}

export const ISO_CASES: IsoChartCase[] = [
  {
    // A and C 100 tokens apart on a 2,000-token axis, at the same pass rate.
    name: 'verbose-judge',
    budget: 2000,
    arms: [
      arm({ variant: 'baseline', n: 1, rate: 0.75, tokens: 88 }),
      arm({ variant: 'candidate', n: 1, rate: 0.91, tokens: 360 }),
      arm({ variant: 'baseline', n: 8, rate: 0.75, oracle: 0.79, tokens: 186 }),
      arm({ variant: 'candidate', n: 8, rate: 0.235, oracle: 0.5, tokens: 1989 }),
    ],
  },
  {
    name: 'date-parser',
    budget: 3000,
    arms: [
      arm({ variant: 'baseline', n: 1, rate: 0.585, tokens: 285 }),
      arm({ variant: 'candidate', n: 1, rate: 0.825, tokens: 351 }),
      arm({ variant: 'baseline', n: 8, rate: 0.585, tokens: 327 }),
      arm({ variant: 'candidate', n: 8, rate: 0.825, tokens: 393 }),
    ],
  },
  {
    // The control: baseline and candidate on the very same spot, oracles just above.
    name: 'null',
    budget: 1000,
    arms: [
      arm({ variant: 'baseline', n: 1, rate: 0.805, tokens: 150 }),
      arm({ variant: 'candidate', n: 1, rate: 0.805, tokens: 150 }),
      arm({ variant: 'baseline', n: 8, rate: 0.84, oracle: 0.99, tokens: 420 }),
      arm({ variant: 'candidate', n: 8, rate: 0.84, oracle: 0.99, tokens: 420 }),
    ],
  },
  {
    // Six arms (best_of_n [1, 4, 8]) in a cluster.
    name: 'six arms',
    budget: 5000,
    arms: [
      arm({ variant: 'baseline', n: 1, rate: 0.6, tokens: 300 }),
      arm({ variant: 'candidate', n: 1, rate: 0.62, tokens: 310 }),
      arm({ variant: 'baseline', n: 4, rate: 0.64, oracle: 0.7, tokens: 330 }),
      arm({ variant: 'candidate', n: 4, rate: 0.65, oracle: 0.72, tokens: 335 }),
      arm({ variant: 'baseline', n: 8, rate: 0.66, oracle: 0.75, tokens: 350 }),
      arm({ variant: 'candidate', n: 8, rate: 0.67, oracle: 0.77, tokens: 355 }),
    ],
  },
];
