/**
 * Statistics for isobudget (DESIGN §5): pure functions, no I/O, seeded randomness only.
 * Re-exports only; each concept lives in its own file with its source cited there.
 */
export type { BootstrapEstimate } from './bootstrap-intervals.js';
export { biasCorrection, jackknifeAcceleration } from './bootstrap-intervals.js';
export type { PairedBootstrapInput, PairedDifferenceOptions } from './bootstrap.js';
export { pairedBootstrap, pairedDifference } from './bootstrap.js';
export { binomialCdf, binomialLogPmf } from './binomial.js';
export type { Interval } from './interval.js';
export { mcnemarExactP } from './mcnemar.js';
export { normalCdf, normalQuantile } from './normal.js';
export type { ClusterKey } from './paired-se.js';
export { clusteredStandardError, meanStandardError, pairedDifferenceSd, pairedStandardError } from './paired-se.js';
export { passAtK } from './pass-at-k.js';
export type { CasesForPowerInput, MinimumDetectableEffectInput, PairedPowerInput, PairedVariability } from './power.js';
export { casesForPower, minimumDetectableEffect, pairedPower } from './power.js';
export { quantile, quantileOfSorted, quantiles } from './quantile.js';
export type { Rng, Xoshiro128State } from './rng.js';
export { createRng, createRngFromState } from './rng.js';
export type { ColumnSums, SumStatistic } from './sum-statistics.js';
export {
  differenceInDifferences,
  meanDifference,
  meanOf,
  ratioOfRatios,
  ratioOfSums,
} from './sum-statistics.js';
export { wilsonInterval } from './wilson.js';
