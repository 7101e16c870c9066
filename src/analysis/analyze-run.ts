/**
 * The whole analysis of one run, pure: per-arm metrics, the same-budget comparison (B−A),
 * every Best-of-N comparison (D−C, DiD), per-category deltas, the regression set, and the
 * invariant checks the verdict needs.
 */
import type { GatesConfig } from '../config/types.js';
import type { ResultRecord } from '../ledger/records.js';
import type { BootstrapEstimate } from '../stats/index.js';
import { armName } from '../runner/plan.js';
import { armMetrics, type ArmMetrics } from './arm-metrics.js';
import { caseTable, type ArmCases } from './case-table.js';
import { comparePasses, compareTokens, differenceInDifferencesOf, p95LatencyRatio, significantlyWorse, type BootstrapSettings, type Estimate, type PassComparison, type TokenComparison } from './compare.js';
import { isOverBudget } from './over-budget.js';
import { categoryDeltas, type CategoryDelta } from './categories.js';
import { didKey, passKey, sharedBootstrap, tokensKey, type SharedEstimates } from './shared-bootstrap.js';

export interface AnalysisContext {
  runId: string;
  experiment: string;
  split: string;
  /** B (tokens); undefined when unknown (a seed-format ledger that does not say, and no --budget). */
  budget: number | undefined;
  /** Where B came from (default `config`): the run's config, `--budget`, the ledger's rows, or nowhere. */
  budgetSource?: BudgetSource;
  bestOfN: readonly number[];
  baselineId: string;
  candidateId: string;
  gates: GatesConfig;
  seed: number;
  /** The run's Best-of-N selector (`oracle`, `majority`, …); undefined for a ledger. */
  selector?: string;
  /** Arms the run declared B not binding for (from the manifest). */
  nonBindingArms: readonly string[];
}

export type BudgetSource = 'config' | 'flag' | 'ledger' | 'unknown';

export interface BestOfNComparison {
  n: number;
  /** Selected@N, candidate vs baseline (D−C). */
  selected: PassComparison;
  tokens: TokenComparison | undefined;
  /** (D−C) − (B−A). */
  differenceInDifferences: Estimate | undefined;
  /** null when the arm's single paths are unknown (ArmMetrics.passAtN). */
  baselinePassAtN: number | null;
  candidatePassAtN: number | null;
  /** Candidate spend at n=N over its spend at n=1 (the seed's `bestofn_ratio`). */
  spendRatioVsSingle: number | undefined;
}

export interface RegressionSetResult {
  cases: number;
  comparison: PassComparison;
  /** CI upper bound of the delta < 0. */
  worse: boolean;
  /** Cases the baseline passed and the candidate failed. */
  lost: string[];
}

export interface Invariants {
  /** Units that billed more than B (0 when B is unknown: nothing to check against). */
  overBudgetUnits: number;
  missingArms: string[];
  /** Arms that ran on a different case set than baseline_single. */
  mismatchedArms: string[];
  callsMissingUsage: number;
  unitsMissingTokens: number;
  /** Attempts that may have been billed but never said (timeouts, 5xx, …): booked at their reservations. */
  callsOutcomeUnknown: number;
  /** Σ those reservations inside the units' token totals (tokens). */
  outcomeUnknownTokens: number;
  nonBindingArms: string[];
}

export interface Analysis {
  context: AnalysisContext;
  settings: BootstrapSettings;
  arms: ArmMetrics[];
  sameBudget: { passes: PassComparison | undefined; tokens: TokenComparison | undefined; p95LatencyRatio: number | undefined };
  bestOfN: BestOfNComparison[];
  categories: CategoryDelta[];
  regression: RegressionSetResult | undefined;
  invariants: Invariants;
}

export function analyzeResults(results: readonly ResultRecord[], context: AnalysisContext): Analysis {
  const settings: BootstrapSettings = { rounds: context.gates.bootstrapRounds, seed: context.seed, confidence: context.gates.confidence };
  const evaluated = results.filter((r) => r.split !== 'regression');
  const table = caseTable(evaluated);
  const get = (arm: string): ArmCases => table.get(arm) ?? new Map();
  const A = armName('baseline', 1);
  const B = armName('candidate', 1);
  const ns = context.bestOfN.filter((k) => k > 1);
  const shared = sharedBootstrap(
    table,
    [[A, B], ...ns.flatMap((n) => [[armName('baseline', n), armName('candidate', n)], [B, armName('candidate', n)]] as const)],
    ns.map((n) => [A, B, armName('baseline', n), armName('candidate', n)] as const),
    settings,
  );
  // A corrected level for the gain check (evolve) needs its own interval; every other one keeps settings.
  const gainConfidence = context.gates.gainConfidence ?? settings.confidence;
  const passes = gainConfidence === settings.confidence
    ? comparePasses(get(A), get(B), [A, B], settings, shared?.get(passKey(A, B)))
    : comparePasses(get(A), get(B), [A, B], { ...settings, confidence: gainConfidence });
  const sameBudget = { passes, tokens: compareTokens(get(A), get(B), settings, tokensOf(shared, A, B)), p95LatencyRatio: p95LatencyRatio(get(A), get(B)) };
  const metrics = armMetrics(evaluated, context.budget);
  const bestOfN: BestOfNComparison[] = [];
  for (const n of ns) {
    const C = armName('baseline', n);
    const D = armName('candidate', n);
    const selected = comparePasses(get(C), get(D), [C, D], settings, shared?.get(passKey(C, D)));
    if (!selected) continue;
    const tokensD = compareTokens(get(B), get(D), settings, tokensOf(shared, B, D));
    bestOfN.push({
      n,
      selected,
      tokens: compareTokens(get(C), get(D), settings, tokensOf(shared, C, D)),
      differenceInDifferences: differenceInDifferencesOf({ a: get(A), b: get(B), c: get(C), d: get(D) }, settings, shared?.get(didKey([A, B, C, D]))),
      baselinePassAtN: metrics.find((m) => m.arm === C)?.passAtN ?? null,
      candidatePassAtN: metrics.find((m) => m.arm === D)?.passAtN ?? null,
      spendRatioVsSingle: tokensD?.totalTokensRatio.value,
    });
  }
  return {
    context,
    settings,
    arms: metrics,
    sameBudget,
    bestOfN,
    categories: categoryDeltas(get(A), get(B), settings),
    regression: regressionSet(results.filter((r) => r.split === 'regression'), settings),
    invariants: invariants(results, table, context),
  };
}

function tokensOf(shared: SharedEstimates | undefined, baseline: string, candidate: string): { tps: BootstrapEstimate; total: BootstrapEstimate } | undefined {
  const tps = shared?.get(tokensKey('tps', baseline, candidate));
  const total = shared?.get(tokensKey('total', baseline, candidate));
  return tps && total ? { tps, total } : undefined;
}

function regressionSet(results: readonly ResultRecord[], settings: BootstrapSettings): RegressionSetResult | undefined {
  if (results.length === 0) return undefined;
  const table = caseTable(results);
  const A = armName('baseline', 1);
  const B = armName('candidate', 1);
  const a = table.get(A) ?? new Map();
  const b = table.get(B) ?? new Map();
  const comparison = comparePasses(a, b, [A, B], settings);
  if (!comparison) return undefined;
  const lost = [...a.keys()].filter((id) => (a.get(id)?.pass ?? 0) > (b.get(id)?.pass ?? 0)).sort();
  return { cases: comparison.cases, comparison, worse: significantlyWorse(comparison, 1 - settings.confidence), lost };
}

function invariants(results: readonly ResultRecord[], table: Map<string, ArmCases>, context: AnalysisContext): Invariants {
  const expected = context.bestOfN.flatMap((n) => [armName('baseline', n), armName('candidate', n)]);
  const reference = table.get(armName('baseline', 1));
  const referenceIds = reference ? [...reference.keys()].sort().join('\n') : '';
  return {
    overBudgetUnits: results.filter((r) => isOverBudget(r, context.budget)).length,
    missingArms: expected.filter((arm) => !table.has(arm)),
    mismatchedArms: [...table.entries()].filter(([, cases]) => [...cases.keys()].sort().join('\n') !== referenceIds).map(([arm]) => arm),
    callsMissingUsage: results.reduce((acc, r) => acc + r.calls_missing_usage, 0),
    unitsMissingTokens: results.filter((r) => r.total_tokens === undefined).length,
    callsOutcomeUnknown: results.reduce((acc, r) => acc + (r.calls_outcome_unknown ?? 0), 0),
    outcomeUnknownTokens: results.reduce((acc, r) => acc + (r.outcome_unknown_tokens ?? 0), 0),
    // The plan's guess yields to what happened: an arm some of whose paths B cut is bound by B
    // (an agent's turns share ⌊B/n⌋, so B binds late in a path though never on its first turn).
    nonBindingArms: context.nonBindingArms.filter((arm) => !results.some((r) => r.arm === arm && r.paths.some((p) => p.finish_reason === 'budget_exhausted'))),
  };
}
