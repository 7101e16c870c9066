/**
 * Verdict rules (DESIGN §5), in order, pure. The first rule that fires decides; every rule's
 * check is kept in `checks` so a reader sees why the others did not.
 */
import type { Analysis, BestOfNComparison } from '../analysis/analyze-run.js';
import type { Attribution } from '../analysis/attribution/attribute.js';
import { casesForPower } from '../stats/index.js';
import { buildRecord } from './build-record.js';
import { explain } from './reason.js';
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

  const valid =
    check('budget_respected', inv.overBudgetUnits === 0, `${inv.overBudgetUnits} (case, arm) units billed more than B`) &&
    check('arms_complete', inv.missingArms.length === 0 && passes !== undefined, inv.missingArms.length ? `missing arms: ${inv.missingArms.join(', ')}` : 'all arms present') &&
    check('same_cases', inv.mismatchedArms.length === 0, inv.mismatchedArms.length ? `arms on other cases: ${inv.mismatchedArms.join(', ')}` : 'every arm ran the same cases');

  let verdict: VerdictName;
  let power: VerdictRecord['power'] = null;
  if (!valid || !passes) {
    verdict = 'invalid';
  } else {
    const worseCategories = analysis.categories.filter((c) => c.worse);
    const regressed =
      check('regression_set', !analysis.regression?.worse, analysis.regression ? `regression set delta ${fmt(analysis.regression.comparison.delta.value)} CI [${fmt(analysis.regression.comparison.delta.ci[0])}, ${fmt(analysis.regression.comparison.delta.ci[1])}]` : 'no regression set') === false ||
      check('categories', worseCategories.length === 0, worseCategories.length ? `significantly worse: ${worseCategories.map((c) => `${c.category} ${fmt(c.delta.value)}`).join(', ')}` : `${analysis.categories.length} categories, none significantly worse`) === false;
    const delta = passes.delta;
    const gain = check('same_budget_gain', delta.value >= gates.minSameBudgetGain, `n=1 delta ${fmt(delta.value)} vs min ${gates.minSameBudgetGain}`);
    const significant = check('ci_excludes_zero', delta.ci[0] > 0, `CI [${fmt(delta.ci[0])}, ${fmt(delta.ci[1])}]`);
    const tpsRatio = tokens?.tokensPerSuccessRatio.value;
    const tokensOk = check('tokens_per_success', tpsRatio !== undefined && Number.isFinite(tpsRatio) && tpsRatio <= gates.maxTokenGrowthRatio, `ratio ${tpsRatio === undefined ? 'unknown' : fmt(tpsRatio)} vs max ${gates.maxTokenGrowthRatio}`);
    const latency = analysis.sameBudget.p95LatencyRatio;
    const latencyOk = check('p95_latency', latency === undefined || latency <= gates.maxLatencyGrowthRatio, `ratio ${latency === undefined ? 'unknown' : fmt(latency)} vs max ${gates.maxLatencyGrowthRatio}`);
    // A judge gain that vanishes at equal length is not a gain (DESIGN §6, length gaming).
    const lengthGaming = attribution?.findings.find((f) => f.detector === 'length_gaming');
    const honest = check('no_length_gaming', lengthGaming?.flagged !== true, lengthGaming ? lengthGaming.summary : 'not judge-scored');
    const real = gain && significant && honest;
    const gainAtN = significantGainAtN(analysis.bestOfN, gates.minSameBudgetGain);
    const leak = real ? undefined : gainAtN;
    check('no_bestofn_only_gain', leak === undefined, leak ? `gain only at n=${leak.n}: delta ${fmt(leak.selected.delta.value)} CI [${fmt(leak.selected.delta.ci[0])}, ${fmt(leak.selected.delta.ci[1])}] with no n=1 gain` : gainAtN ? `n=${gainAtN.n} gain comes with an n=1 gain` : 'no significant n=N gain');

    if (regressed) verdict = 'regression';
    else if (real && tokensOk && latencyOk) verdict = 'real_evolution';
    else if (real) verdict = 'budget_growth';
    else if (leak) verdict = 'budget_leakage';
    else if (gain && !significant) verdict = 'inconclusive';
    else verdict = 'no_gain';

    if (verdict === 'inconclusive' || verdict === 'no_gain') {
      const needed = delta.value > 0 && passes.sdDiff > 0 ? casesForPower({ delta: delta.value, sdDiff: passes.sdDiff, alpha: 1 - gates.confidence, power: 0.8 }) : undefined;
      power = { observed_delta: delta.value, sd_diff: passes.sdDiff, cases_for_80_power: needed === undefined || !Number.isFinite(needed) ? null : needed, cases_now: passes.cases };
    }
  }
  const record = buildRecord(analysis, verdict, checks, power, now);
  if (attribution) record.attribution = attribution;
  record.reason = explain(record);
  return record;
}

/** The largest N whose selected@N gain is significant and at least the minimum gain. */
function significantGainAtN(comparisons: readonly BestOfNComparison[], minGain: number): BestOfNComparison | undefined {
  return [...comparisons].reverse().find((c) => c.selected.delta.ci[0] > 0 && c.selected.delta.value >= minGain);
}

function fmt(value: number): string {
  return (Math.round(value * 1000) / 1000).toString();
}
