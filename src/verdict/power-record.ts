/**
 * How many cases would give 80% power (paired-z sample size, Miller 2024; stats/power.ts),
 * pure. With an interval, at the observed effect and SD of per-case differences. With too
 * few cases for an interval, at the smallest gain the gate cares about
 * (min_same_budget_gain), and — when the observed SD is undefined (one case) or 0 — with
 * the largest SD a pass/fail difference can have (1): a conservative answer, never "n/a".
 */
import type { PassComparison } from '../analysis/compare.js';
import type { GatesConfig } from '../config/types.js';
import { casesForPower } from '../stats/index.js';
import type { VerdictRecord } from './record.js';

/** SD of a per-case difference of 0/1 outcomes is at most 1 (it takes values in {−1, 0, 1}). */
const LARGEST_PASS_FAIL_SD = 1;

export function powerRecord(passes: PassComparison, gates: GatesConfig, tooFew: boolean): NonNullable<VerdictRecord['power']> {
  const observedSd = Number.isFinite(passes.sdDiff) ? passes.sdDiff : undefined;
  const sdAssumed = tooFew && !(observedSd !== undefined && observedSd > 0);
  const sd = sdAssumed ? LARGEST_PASS_FAIL_SD : observedSd ?? 0;
  const target = tooFew ? gates.minSameBudgetGain : passes.delta.value;
  const needed = target > 0 && sd > 0 ? casesForPower({ delta: target, sdDiff: sd, alpha: 1 - gates.confidence, power: 0.8 }) : undefined;
  return {
    observed_delta: passes.delta.value,
    sd_diff: observedSd ?? null,
    cases_for_80_power: needed === undefined || !Number.isFinite(needed) ? null : needed,
    cases_now: passes.cases,
    target_delta: target,
    sd_assumed: sdAssumed,
  };
}
