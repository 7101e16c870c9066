/**
 * Verdict rules (DESIGN §5), in order, pure. The first rule that fires decides; every rule's
 * check is kept in `checks` so a reader sees why the others did not.
 *
 * 1. `invalid` — an invariant broke: a unit billed more than B, arms missing or on different
 *    cases, or more than gates.max_error_rate of some arm's paths ended in an error.
 * 2. `regression` — the regression set, some category, or the n=1 pass rate overall is
 *    significantly worse (CI upper bound < 0, and McNemar agrees for pass/fail outcomes).
 * 3. `real_evolution` — the n=1 gain reaches the minimum, its interval lies above 0 AND (for
 *    pass/fail outcomes) the exact McNemar test agrees, as a regression must; tokens_per_success
 *    growth is within the gate over its whole interval (upper bound ≤ max_token_growth_ratio),
 *    and p95 latency within its gate.
 * 4. `budget_growth` — a real gain whose tokens_per_success interval lies above the gate (lower
 *    bound > max), or whose spend or latency is unknown or over its gate.
 * 5. `budget_leakage` — as DESIGN §5.
 * 6. `inconclusive` — a real gain whose tokens_per_success interval straddles the gate; or an
 *    interval that still holds a gain of the minimum size (or none at all: too few cases).
 *    It says how many cases would give 80% power.
 * 7. `no_gain` — only when the interval excludes a gain of the minimum size (upper bound below
 *    min_same_budget_gain): the score interval is never zero-width, so 24 concordant pairs
 *    (upper bound +13.8 pts) are `inconclusive` at a minimum of 5 pts, not `no_gain`. A gain
 *    flagged as length gaming is `no_gain` whatever its interval: more cases would not cure it.
 */
import type { Analysis, BestOfNComparison } from '../analysis/analyze-run.js';
import type { Attribution } from '../analysis/attribution/attribute.js';
import { significantlyWorse, type Estimate } from '../analysis/compare.js';
import { buildRecord } from './build-record.js';
import { errorRateCheck, maxErrorRate } from './error-rule.js';
import { powerRecord } from './power-record.js';
import { explain } from './reason.js';
import { requireKnownBudget } from './unknown-budget.js';
import type { Check, VerdictName, VerdictRecord } from './record.js';

export function decideVerdict(analysis: Analysis, now = new Date(), attribution?: Attribution): VerdictRecord {
  const { gates } = analysis.context;
  const checks: Check[] = [];
  const check = (name: string, passed: boolean, detail: string): boolean => {
    checks.push({ name, passed, detail });
    return passed;
  };
  const inv = analysis.invariants;
  const passes = analysis.sameBudget.passes;
  const tokens = analysis.sameBudget.tokens;
  const budget = analysis.context.budget;
  const errors = errorRateCheck(analysis.arms, maxErrorRate(gates));

  const valid =
    check('budget_respected', inv.overBudgetUnits === 0, budget === undefined ? 'not checked: B is unknown (the ledger states no budget; pass --budget B)' : `${inv.overBudgetUnits} (case, arm) units billed more than B=${budget}`) &&
    check('arms_complete', inv.missingArms.length === 0 && passes !== undefined, inv.missingArms.length ? `missing arms: ${inv.missingArms.join(', ')}` : 'all arms present') &&
    check('same_cases', inv.mismatchedArms.length === 0, inv.mismatchedArms.length ? `arms on other cases: ${inv.mismatchedArms.join(', ')}` : 'every arm ran the same cases') &&
    check('error_rate', errors.passed, errors.detail);

  let verdict: VerdictName;
  let power: VerdictRecord['power'] = null;
  if (!valid || !passes) {
    verdict = 'invalid';
  } else {
    const alpha = 1 - gates.confidence;
    const delta = passes.delta;
    const worseCategories = analysis.categories.filter((c) => c.worse);
    const regressionSet = check('regression_set', !analysis.regression?.worse, analysis.regression ? `regression set delta ${fmt(analysis.regression.comparison.delta.value)} CI ${interval(analysis.regression.comparison.delta.ci)}` : 'no regression set');
    const categories = check('categories', worseCategories.length === 0, worseCategories.length ? `significantly worse: ${worseCategories.map((c) => `${c.category} ${fmt(c.delta.value)}`).join(', ')}` : `${analysis.categories.length} categories, none significantly worse`);
    // A collapse is a regression whatever the categories say (they may be absent or too small).
    const collapsed = significantlyWorse(passes, alpha);
    const overall = check('overall_not_worse', !collapsed, `n=1 pass rate ${pct(passes.baselinePass)} → ${pct(passes.candidatePass)}, delta ${fmt(delta.value)} CI ${interval(delta.ci)}${passes.mcnemarP === undefined ? '' : `, McNemar p=${passes.mcnemarP.toPrecision(3)}`}`);
    const regressed = !regressionSet || !categories || !overall;
    const tooFew = !Number.isFinite(delta.ci[0]) || !Number.isFinite(delta.ci[1]);
    check('enough_cases', !tooFew, tooFew ? `${passes.cases} case${passes.cases === 1 ? '' : 's'}: too few for an interval of the n=1 delta` : `${passes.cases} cases`);
    const gain = check('same_budget_gain', delta.value >= gates.minSameBudgetGain, `n=1 delta ${fmt(delta.value)} vs min ${gates.minSameBudgetGain}`);
    const above = check('ci_excludes_zero', delta.ci[0] > 0, `CI ${interval(delta.ci)} (${delta.method})`);
    // A gain needs the exact test to agree, as a regression does: an interval alone has called
    // three candidate-only passes in 50 cases a gain (McNemar p = 0.25).
    const gainAlpha = 1 - (gates.gainConfidence ?? gates.confidence);
    const agrees = check('mcnemar_agrees', passes.mcnemarP === undefined || (delta.value > 0 && passes.mcnemarP < gainAlpha), passes.mcnemarP === undefined ? 'not pass/fail outcomes: the interval decides' : `McNemar p=${passes.mcnemarP.toPrecision(3)} vs α=${fmt(gainAlpha)}`);
    const significant = above && agrees;
    const growth = tokenGrowth(tokens?.tokensPerSuccessRatio, gates.maxTokenGrowthRatio);
    const tokensOk = check('tokens_per_success', growth.within, growth.detail);
    const latency = analysis.sameBudget.p95LatencyRatio;
    const latencyOk = check('p95_latency', latency === undefined || latency <= gates.maxLatencyGrowthRatio, `ratio ${latency === undefined ? 'unknown' : fmt(latency)} vs max ${gates.maxLatencyGrowthRatio}`);
    // A judge gain that vanishes at equal length is not a gain (DESIGN §6, length gaming).
    const lengthGaming = attribution?.findings.find((f) => f.detector === 'length_gaming');
    const honest = check('no_length_gaming', lengthGaming?.flagged !== true, lengthGaming ? lengthGaming.summary : 'not judge-scored');
    const real = gain && significant && honest;
    const gainAtN = significantGainAtN(analysis.bestOfN, gates.minSameBudgetGain);
    const leak = real ? undefined : gainAtN;
    check('no_bestofn_only_gain', leak === undefined, leak ? `gain only at n=${leak.n}: delta ${fmt(leak.selected.delta.value)} CI ${interval(leak.selected.delta.ci)} with no n=1 gain` : gainAtN ? `n=${gainAtN.n} gain comes with an n=1 gain` : 'no significant n=N gain');

    // The minimum gain is still inside the interval: more cases could show it (never no_gain) —
    // unless the gain is known to be gamed (length), which more cases would not cure.
    const gainPlausible = !(delta.ci[1] < gates.minSameBudgetGain) && honest;
    if (regressed) verdict = 'regression';
    else if (real && tokensOk && latencyOk) verdict = 'real_evolution';
    else if (real && growth.straddles && latencyOk) verdict = 'inconclusive';
    else if (real) verdict = 'budget_growth';
    else if (leak) verdict = 'budget_leakage';
    else if (tooFew || gainPlausible) verdict = 'inconclusive';
    else verdict = 'no_gain';

    if (verdict === 'inconclusive' || verdict === 'no_gain') power = powerRecord(passes, gates, tooFew);
    // Issue 24 item 4: B unknown never promotes (unknown-budget.ts).
    const known = requireKnownBudget(verdict, budget);
    verdict = known.verdict;
    if (known.check) checks.push(known.check);
  }
  const record = buildRecord(analysis, verdict, checks, power, now);
  if (attribution) record.attribution = attribution;
  record.reason = explain(record);
  return record;
}

/**
 * The tokens_per_success gate read with the ratio's uncertainty, not its point estimate alone
 * (a true ×1.3 with heavy-tailed costs passed a ×1.15 gate in 9–24% of runs at 200 cases):
 *
 * - over (`budget_growth`) when the interval lies above the gate (lower bound > max);
 * - within when the point estimate is ≤ max AND the interval excludes the cost-gaming level
 *   1 + 2·(max − 1) (×1.30 for ×1.15): twice the tolerated growth must be ruled out — as a gain
 *   must reach the minimum and its interval exclude no gain;
 * - straddling (`inconclusive`) otherwise.
 *
 * Requiring the whole interval ≤ max instead cut the power of a true ×1.0 from 93% to 44% on
 * heavy-tailed costs (bench/coverage-grid.mjs); this rule keeps 83% and holds a true ×1.3 to
 * ≤ 5%. The BCa interval falls back to the percentile one when BCa is undefined.
 */
export function tokenGrowth(ratio: Estimate | undefined, max: number): { within: boolean; straddles: boolean; detail: string } {
  if (ratio === undefined || !Number.isFinite(ratio.value)) return { within: false, straddles: false, detail: `ratio ${ratio === undefined ? 'unknown' : fmt(ratio.value)} vs max ${max}` };
  const ci = Number.isNaN(ratio.ci[0]) || Number.isNaN(ratio.ci[1]) ? ratio.ciPercentile : ratio.ci;
  const gaming = costGamingLevel(max);
  const detail = `ratio ${fmt(ratio.value)} CI ${interval(ci)} (${ratio.method}) vs max ${max}, must exclude ×${fmt(gaming)}`;
  if (Number.isNaN(ci[0]) || Number.isNaN(ci[1])) return { within: false, straddles: ratio.value <= max, detail };
  const within = ratio.value <= max && ci[1] < gaming;
  return { within, straddles: !within && ci[0] <= max, detail };
}

/** Twice the growth the gate tolerates: ×1.30 for max_token_growth_ratio ×1.15. */
export function costGamingLevel(max: number): number {
  return 1 + 2 * (max - 1);
}

/** The largest N whose selected@N gain is significant and at least the minimum gain. */
function significantGainAtN(comparisons: readonly BestOfNComparison[], minGain: number): BestOfNComparison | undefined {
  return [...comparisons].reverse().find((c) => c.selected.delta.ci[0] > 0 && c.selected.delta.value >= minGain);
}

function fmt(value: number): string {
  return (Math.round(value * 1000) / 1000).toString();
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** An interval for a check's detail; "n/a" when it is undefined (too few cases), never NaN. */
function interval(ci: readonly [number, number]): string {
  return Number.isNaN(ci[0]) || Number.isNaN(ci[1]) ? 'n/a' : `[${fmt(ci[0])}, ${fmt(ci[1])}]`;
}
