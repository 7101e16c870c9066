/**
 * One synthetic null screen of `calibrate --evolve`, judged the four ways the calibration
 * compares — on the same draws (common random numbers), so the policies differ only in how
 * they decide:
 *
 * | policy                   | screen                                   | gain evidence `real_evolution` needs |
 * |--------------------------|------------------------------------------|--------------------------------------|
 * | `sequential`             | the runner's monitor, stops at a look    | anytime-valid CS at 1 − α/m above 0  |
 * | `sequential_uncorrected` | the same, its own stops                  | the CS at 1 − α                      |
 * | `fixed`                  | every case                               | bootstrap interval at 1 − α/m        |
 * | `uncorrected`            | every case                               | bootstrap interval at 1 − α (greedy) |
 *
 * Each mirrors its screen in the loop: a sequential screen is `replaySequential` over the
 * results in the split's order, then `decideVerdict(analyzeResults(...))` on the cases it read
 * and `sequentialVerdictName` (sequential-verdict.ts); a fixed one is the verdict over all cases.
 * Speed-ups that cannot change an acceptance: a fixed screen whose point delta is below
 * min_same_budget_gain is never `real_evolution` (rule 3); a sequential screen without the
 * decided anytime gain never is either (`sequentialVerdictName` makes it `inconclusive`).
 */
import { analyzeResults, type AnalysisContext } from '../../analysis/analyze-run.js';
import type { ArmModel } from '../../calibrate/synthetic-results.js';
import type { GatesConfig, SequentialConfig } from '../../config/types.js';
import type { ResultRecord } from '../../ledger/records.js';
import { replaySequential, type SequentialOutcome } from '../../runner/sequential-monitor.js';
import type { SequentialPlan } from '../../runner/sequential-plan.js';
import { decideVerdict } from '../../verdict/decide.js';
import type { VerdictName } from '../../verdict/record.js';
import { sequentialVerdictName } from '../../verdict/sequential-verdict.js';

export const POLICIES = ['sequential', 'sequential_uncorrected', 'fixed', 'uncorrected'] as const;
export type PolicyName = (typeof POLICIES)[number];

/** A verdict, or why the screen was not analysed: it could not have been `real_evolution`. */
export type ScreenCall = VerdictName | 'below_min_gain' | 'no_anytime_gain';

export interface ScreenLevels {
  gates: GatesConfig;
  arms: ArmModel;
  /** The sequential test (look_every, min_cases, gain and futility levels); its `confidence` is set per policy. */
  sequential: SequentialConfig;
  /** Two-sided confidence of each policy's gain interval (the CS for the sequential ones). */
  confidence: Record<PolicyName, number>;
  /** Bootstrap rounds of the fixed screens' analysis, per policy (the corrected one needs more). */
  bootstrapRounds: { fixed: number; uncorrected: number };
}

export interface JudgedScreen {
  calls: Record<PolicyName, ScreenCall>;
  /** n=1 point delta each policy ranks by: over the cases read (sequential) or all (fixed). */
  delta: Record<PolicyName, number>;
  /** The corrected sequential screen: why it stopped, and its tokens ÷ the whole split's. */
  stop: string;
  tokensFraction: number;
}

const EPOCH = new Date(0);

export function judgeNullScreen(results: ResultRecord[], order: string[], levels: ScreenLevels, seed: number): JudgedScreen {
  const delta = results.reduce((sum, r) => sum + (r.passed ? 1 : 0) * (r.variant === 'candidate' ? 1 : -1), 0) / order.length;
  const context = (gates: GatesConfig): AnalysisContext => ({ runId: 'calibrate-evolve', experiment: 'calibrate-evolve', split: 'val', budget: levels.arms.budget, bestOfN: [1], baselineId: 'incumbent', candidateId: 'candidate', gates, seed, nonBindingArms: [] });
  const fixed = (policy: 'fixed' | 'uncorrected'): ScreenCall => {
    if (delta < levels.gates.minSameBudgetGain) return 'below_min_gain';
    const gates = { ...levels.gates, gainConfidence: levels.confidence[policy], bootstrapRounds: levels.bootstrapRounds[policy] };
    return decideVerdict(analyzeResults(results, context(gates)), EPOCH).verdict;
  };
  const sequential = (policy: 'sequential' | 'sequential_uncorrected'): { call: ScreenCall; outcome: SequentialOutcome } => {
    const outcome = replaySequential(sequentialPlan(order, levels, levels.confidence[policy]), results).outcome();
    if (!outcome.decidedGain) return { call: 'no_anytime_gain', outcome };
    const read = new Set(outcome.caseIds);
    // As the loop's sequential screen: the fixed-sample rules at gates.confidence on the cases read, then the sequential rules.
    const onRead = decideVerdict(analyzeResults(results.filter((r) => read.has(r.case_id)), context(levels.gates)), EPOCH).verdict;
    return { call: sequentialVerdictName(onRead, outcome).verdict, outcome };
  };
  const corrected = sequential('sequential');
  const uncorrected = sequential('sequential_uncorrected');
  const total = results.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0);
  return {
    calls: { sequential: corrected.call, sequential_uncorrected: uncorrected.call, fixed: fixed('fixed'), uncorrected: fixed('uncorrected') },
    delta: { sequential: corrected.outcome.singles.mean, sequential_uncorrected: uncorrected.outcome.singles.mean, fixed: delta, uncorrected: delta },
    stop: corrected.outcome.stop?.reason ?? 'incomplete',
    tokensFraction: total > 0 ? corrected.outcome.tokens.read / total : 1,
  };
}

/** The plan a sequential screen of the loop runs by, on synthetic cases (their own order is already random). */
function sequentialPlan(order: string[], levels: ScreenLevels, confidence: number): SequentialPlan {
  const { gates, sequential } = levels;
  return {
    order,
    orderSeed: 0,
    lookEvery: sequential.lookEvery,
    minCases: sequential.minCases,
    levels: { minGain: gates.minSameBudgetGain, confidence, gainConfidence: sequential.gainConfidence, futilityConfidence: sequential.futilityConfidence, horizon: order.length },
    maxTokenGrowthRatio: gates.maxTokenGrowthRatio,
    maxLatencyGrowthRatio: gates.maxLatencyGrowthRatio,
    epochs: 1,
    bestOfN: [1],
  };
}
