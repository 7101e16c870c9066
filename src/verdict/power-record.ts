/**
 * How many cases would give 80% power (paired-z sample size, Miller 2024; stats/power.ts),
 * pure. At the observed effect when it reaches the minimum gain, else at the minimum gain
 * itself (min_same_budget_gain: the smallest gain the gate cares about, still inside the
 * interval of an `inconclusive`), with the observed SD of per-case differences — and, when
 * that SD is undefined (one case) or 0 (every pair concordant), with the largest SD a
 * pass/fail difference can have (1): a conservative answer, never "n/a".
 */
import type { PassComparison } from '../analysis/compare.js';
import type { GatesConfig } from '../config/types.js';
import { casesForPower } from '../stats/index.js';
import type { VerdictRecord } from './record.js';

/** SD of a per-case difference of 0/1 outcomes is at most 1 (it takes values in {−1, 0, 1}). */
const LARGEST_PASS_FAIL_SD = 1;

export function powerRecord(passes: PassComparison, gates: GatesConfig, tooFew: boolean): NonNullable<VerdictRecord['power']> {
  const observedSd = Number.isFinite(passes.sdDiff) ? passes.sdDiff : undefined;
  const sdAssumed = !(observedSd !== undefined && observedSd > 0);
  const sd = sdAssumed ? LARGEST_PASS_FAIL_SD : observedSd ?? 0;
  const target = tooFew || !(passes.delta.value >= gates.minSameBudgetGain) ? gates.minSameBudgetGain : passes.delta.value;
  // Clustered cases are worth 1/design-effect independent ones: the count scales up by it.
  const independent = target > 0 && sd > 0 ? casesForPower({ delta: target, sdDiff: sd, alpha: 1 - gates.confidence, power: 0.8 }) : undefined;
  const needed = independent === undefined ? undefined : Math.ceil(independent * (passes.designEffect ?? 1));
  return {
    observed_delta: passes.delta.value,
    sd_diff: observedSd ?? null,
    cases_for_80_power: needed === undefined || !Number.isFinite(needed) ? null : needed,
    cases_now: passes.cases,
    target_delta: target,
    sd_assumed: sdAssumed,
  };
}
