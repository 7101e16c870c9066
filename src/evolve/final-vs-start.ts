/**
 * The final incumbent against the starting skill on val, from ledgers the loop already has:
 * the starting skill's arms from the first screen it was the incumbent of, the final's arms
 * from the screen that accepted it — the same B, paired on the val cases both screens read
 * (all of them for fixed screens, the shorter prefix of the seeded order for sequential ones);
 * no new tokens. Descriptive: the val split chose this incumbent, so its val gain is optimistic (the
 * winner's curse); the test split in `isobudget gate` is what decides.
 */
import { join } from 'node:path';
import { analyzeResults } from '../analysis/analyze-run.js';
import { loadRun } from '../analysis/load-run.js';
import type { ExperimentConfig } from '../config/types.js';
import type { ResultRecord } from '../ledger/records.js';
import { decideVerdict } from '../verdict/decide.js';
import { sequentialView } from '../verdict/sequential-verdict.js';
import type { Interval, VerdictName } from '../verdict/record.js';
import type { LineageEntry } from './types.js';

export interface FinalVsStart {
  start_version: string;
  final_version: string;
  verdict: VerdictName;
  cases: number;
  start_pass: number;
  final_pass: number;
  n1_delta: number;
  ci95: Interval | null;
  confidence: number;
  tokens_per_success_ratio: number | null;
  bestofn_delta: number | null;
  /** Run directories the arms came from (relative to the loop directory). */
  from: { start: string; final: string };
  note: string;
}

export function finalVsStart(input: { loopDir: string; config: ExperimentConfig; lineage: readonly LineageEntry[]; start: { version: string; variantId: string }; final: { version: string; variantId: string }; confidence: number; bootstrapRounds: number; now: Date }): FinalVsStart | null {
  const startScreen = input.lineage.find((e) => e.parent === input.start.version && e.run_dir !== null);
  const finalScreen = input.lineage.find((e) => e.status === 'accepted' && e.version === input.final.version);
  if (!startScreen?.run_dir || !finalScreen?.run_dir || input.final.version === input.start.version) return null;
  const read = (dir: string): ResultRecord[] => {
    const run = loadRun(join(input.loopDir, dir));
    // A sequential screen: the cases its decision read (in-flight ones at the stop are not a sample).
    return sequentialView(run)?.results ?? run.results;
  };
  const startResults = read(startScreen.run_dir);
  const finalResults = read(finalScreen.run_dir);
  // Sequential screens share the seeded order, so their cases are nested prefixes: pair on the shorter.
  const finalCases = new Set(finalResults.map((r) => r.case_id));
  const inBoth = new Set(startResults.map((r) => r.case_id).filter((id) => finalCases.has(id)));
  const pick = (results: ResultRecord[], variant: 'baseline' | 'candidate'): ResultRecord[] => results.filter((r) => r.variant === variant && inBoth.has(r.case_id)).map((r) => ({ ...r, run_id: 'final-vs-start' }));
  const results = [...pick(startResults, 'baseline'), ...pick(finalResults, 'candidate')];
  const { config } = input;
  const analysis = analyzeResults(results, {
    runId: 'final-vs-start', experiment: config.experiment, split: 'val', budget: config.budget.totalTokensPerCase, bestOfN: config.budget.bestOfN,
    baselineId: input.start.variantId, candidateId: input.final.variantId,
    // Latency is not gated: the two arms ran in different screens, at different times, so their wall-clock ratio measures the machine's load, not the skills.
    gates: { ...config.gates, gainConfidence: input.confidence, bootstrapRounds: input.bootstrapRounds, maxLatencyGrowthRatio: Number.POSITIVE_INFINITY }, seed: config.seed, nonBindingArms: [],
  });
  const verdict = decideVerdict(analysis, input.now);
  const same = verdict.same_budget;
  if (!same) return null;
  return {
    start_version: input.start.version,
    final_version: input.final.version,
    verdict: verdict.verdict,
    cases: same.cases,
    start_pass: same.baseline_pass,
    final_pass: same.candidate_pass,
    n1_delta: same.delta,
    ci95: same.ci95,
    confidence: same.confidence,
    tokens_per_success_ratio: same.tokens_per_success_growth,
    bestofn_delta: verdict.bestofn_on?.delta ?? null,
    from: { start: startScreen.run_dir, final: finalScreen.run_dir },
    note: 'descriptive: these val cases chose the final incumbent, so its val gain is optimistic, and latency is not compared (the arms ran in different screens); `isobudget gate` decides on the test split',
  };
}
