/**
 * The verdict of a sequential screening run (issue 14), pure. The ordinary rules (decide.ts)
 * judge the cases the sequential decision read — the prefix of the seeded order up to the
 * stop, never the cases that were still in flight — with two changes that keep optional
 * stopping honest:
 *
 * - `real_evolution` (and `budget_growth`, which also claims a real n=1 gain) needs the
 *   anytime-valid gain: the CS above 0 and the gain bound at least min_same_budget_gain. The
 *   bootstrap CI of a run that could have stopped at any look is not valid on its own; without
 *   that evidence the verdict is `inconclusive`.
 * - a futility stop whose anytime-valid CS lies wholly below 0 is a `regression`; any other
 *   futility stop is `no_gain` where the ordinary rules would say `inconclusive` (issue 24: the
 *   fixed-sample interval of the few cases read still holds the minimum gain; the futility
 *   bound, at futility_confidence, does not).
 *
 * Clusters (issue 24): the screen's capital processes read cases as independent, so with a
 * declared `cluster` the stop may come early; both sequential rules then also need the
 * ordinary, cluster-robust rules on the cases read — a promotion already does (its verdict
 * must be `real_evolution` first), and a futility regression needs `overall_not_worse` to
 * fail on the clustered interval and the clustered McNemar test.
 *
 * Everything else (`budget_leakage`, `no_gain`, categories, the regression set, invariants)
 * is the ordinary verdict on those cases. The fixed-sample intervals stay in the record, marked
 * as not valid under optional stopping.
 */
import type { LoadedRun } from '../analysis/load-run.js';
import type { ResultRecord } from '../ledger/records.js';
import { replaySequential, type SequentialMonitor, type SequentialOutcome } from '../runner/sequential-monitor.js';
import type { PairedScreen, ScreenEvidence } from '../stats/sequential-screen.js';
import { casesForPower } from '../stats/index.js';
import { explain } from './reason.js';
import type { Check, VerdictName, VerdictRecord } from './record.js';
import type { SequentialComparisonRecord, SequentialRecord } from './sequential-record.js';

export interface SequentialView {
  /** The regression set and every result of the cases the decision read. */
  results: ResultRecord[];
  monitor: SequentialMonitor;
}

/** Replays a sequential run's results through its recorded plan; undefined for a fixed-size run. */
export function sequentialView(run: Pick<LoadedRun, 'manifest' | 'results'>): SequentialView | undefined {
  const plan = run.manifest.sequential?.plan;
  if (!plan) return undefined;
  const monitor = replaySequential(plan, run.results);
  const read = new Set(monitor.outcome().caseIds);
  return { results: run.results.filter((r) => r.split === 'regression' || read.has(r.case_id)), monitor };
}

/**
 * The verdict name after the two sequential rules, from the stop and the evidence alone — what
 * `applySequential` decides, without the bounds (calibration calls this thousands of times).
 */
export function sequentialVerdictName(verdict: VerdictName, outcome: Pick<SequentialOutcome, 'stop' | 'decidedGain'>, clusteredNotWorse = false): { verdict: VerdictName; rule: 'regression' | 'no_anytime_gain' | 'futility' | undefined } {
  if (outcome.stop?.reason === 'futility' && outcome.stop.regression && verdict !== 'invalid' && !clusteredNotWorse) return { verdict: 'regression', rule: 'regression' };
  // The fixed-sample interval of a screen stopped early still holds the minimum gain (so the
  // ordinary rules say inconclusive); the futility stop is the design's answer, at its level.
  if (outcome.stop?.reason === 'futility' && verdict === 'inconclusive') return { verdict: 'no_gain', rule: 'futility' };
  if ((verdict === 'real_evolution' || verdict === 'budget_growth') && !outcome.decidedGain) return { verdict: 'inconclusive', rule: 'no_anytime_gain' };
  return { verdict, rule: undefined };
}

export function applySequential(record: VerdictRecord, monitor: SequentialMonitor): VerdictRecord {
  const section = sequentialRecord(monitor);
  const gain = record.gates.min_same_budget_gain;
  const checks: Check[] = [...record.checks];
  const n1 = section.n1;
  checks.push({ name: 'anytime_valid_gain', passed: n1.decided_gain, detail: `anytime-valid ${pct(section.method.confidence)} CS [${pts(n1.cs[0])}, ${pts(n1.cs[1])}], ${pct(section.method.gain_confidence)} gain bound ${pts(n1.gain_bound)} vs min ${pts(gain)} (${section.stopped_at} cases, ${section.stop_reason})` });
  // With clusters the independent-case CS alone does not make a regression (see above).
  const clusteredNotWorse = record.same_budget?.clusters != null && record.checks.find((c) => c.name === 'overall_not_worse')?.passed === true;
  const { verdict, rule } = sequentialVerdictName(record.verdict, monitor.outcome(), clusteredNotWorse);
  let power = record.power;
  let reason: string | undefined;
  if (rule === 'regression') {
    checks.push({ name: 'anytime_valid_no_loss', passed: false, detail: `the anytime-valid ${pct(section.method.confidence)} CS of the n=1 delta [${pts(n1.cs[0])}, ${pts(n1.cs[1])}] lies below 0` });
  } else if (rule === 'futility') {
    power = null;
    reason = `no gain: the screen stopped for futility — the anytime-valid ${pct(section.method.futility_confidence)} futility bound of the n=1 delta (${pts(n1.futility_bound)}) is below the minimum gain ${pts(gain)} (a no_gain at that level: the fixed-sample interval would still hold the minimum).`;
  } else if (rule === 'no_anytime_gain') {
    power = powerOf(record);
    reason = `inconclusive: the n=1 delta ${pts(record.same_budget?.delta ?? n1.delta)} passes the fixed-sample rules, but under optional stopping the anytime-valid ${pct(section.method.gain_confidence)} gain bound (${pts(n1.gain_bound)}) does not reach the minimum gain ${pts(gain)}; a larger split would decide it.`;
  }
  const decided: VerdictRecord = { ...record, verdict, checks, power, sequential: section };
  decided.reason = `${reason ?? explain(decided)} ${sentence(section)}`;
  return decided;
}

function sequentialRecord(monitor: SequentialMonitor): SequentialRecord {
  const outcome = monitor.outcome();
  const plan = monitor.plan;
  const screens = monitor.screens();
  const spent = outcome.tokens.spent;
  const estimate = outcome.tokens.fullSplitEstimate;
  const history = screens.singles.history();
  return {
    method: {
      interval: 'betting confidence sequence',
      reference: 'Waudby-Smith & Ramdas (2024), Estimating means of bounded random variables by betting, JRSS-B 86(1); hedged capital (θ = 1/2) on (d + 1)/2',
      bets: `predictable plug-in tuned to the split size (n = ${plan.levels.horizon}), truncated at c = 1/2`,
      confidence: plan.levels.confidence,
      gain_confidence: plan.levels.gainConfidence,
      futility_confidence: plan.levels.futilityConfidence,
    },
    look_every: plan.lookEvery,
    min_cases: plan.minCases,
    order_seed: plan.orderSeed,
    planned_cases: outcome.plannedCases,
    stopped_at: outcome.caseIds.length,
    stop_reason: outcome.stop?.reason ?? 'incomplete',
    cases_started: outcome.casesStarted,
    n1: comparison(1, outcome.singles, screens.singles, plan.levels.minGain),
    bestofn: outcome.bestN !== undefined && outcome.bestOfN && screens.bestOfN ? comparison(outcome.bestN, outcome.bestOfN, screens.bestOfN, plan.levels.minGain) : null,
    looks: history.map((look, index) => ({ cases: look.cases, delta: look.mean, cs: look.cs, gain_bound: look.gainBound, futility_bound: look.futilityBound, decision: outcome.looks[index]?.decision ?? 'continue' })),
    tokens_spent: spent,
    tokens_full_split_estimate: estimate,
    tokens_fraction: estimate > 0 ? spent / estimate : null,
    tokens_unknown_results: outcome.tokens.unknownResults,
    fixed_sample_intervals_valid: false,
  };
}

function comparison(n: number, evidence: ScreenEvidence, screen: PairedScreen, minGain: number): SequentialComparisonRecord {
  const bounds = screen.bounds();
  return {
    n,
    delta: evidence.mean,
    cs: bounds.cs,
    gain_bound: bounds.gainBound,
    futility_bound: bounds.futilityBound,
    decided_gain: evidence.aboveZero && evidence.gainReached && evidence.mean >= minGain,
    futile: evidence.futile,
    decided_worse: evidence.belowZero,
  };
}

/** The fixed-design case count for 80% power at the observed delta (as decide.ts gives an inconclusive verdict). */
function powerOf(record: VerdictRecord): VerdictRecord['power'] {
  const sb = record.same_budget;
  if (!sb || sb.se_paired === null) return null;
  const sdDiff = sb.se_paired * Math.sqrt(sb.cases);
  const needed = sb.delta > 0 && sdDiff > 0 ? casesForPower({ delta: sb.delta, sdDiff, alpha: 1 - record.gates.confidence, power: 0.8 }) : undefined;
  return { observed_delta: sb.delta, sd_diff: sdDiff, cases_for_80_power: needed === undefined || !Number.isFinite(needed) ? null : needed, cases_now: sb.cases, target_delta: sb.delta, sd_assumed: false };
}

function sentence(section: SequentialRecord): string {
  const fraction = section.tokens_fraction === null ? '' : ` (${Math.round(section.tokens_fraction * 100)}%)`;
  return `Sequential: stopped after ${section.stopped_at} of ${section.planned_cases} cases (${section.stop_reason}); anytime-valid ${pct(section.method.confidence)} CS [${pts(section.n1.cs[0])}, ${pts(section.n1.cs[1])}]; ${section.tokens_spent.toLocaleString('en-US')} tokens spent of ~${section.tokens_full_split_estimate.toLocaleString('en-US')} for the whole split${fraction}.`;
}

function pct(level: number): string {
  return `${Math.round(level * 1000) / 10}%`;
}

function pts(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} pts`;
}
