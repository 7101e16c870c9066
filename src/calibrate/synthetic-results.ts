/**
 * Synthetic `ResultRecord`s of one experiment from latent cases: what `analyzeResults` reads,
 * drawn the way a run would produce it, with no model and no text.
 *
 * - n = 1 arms (A, B): one path; it passes with the case's p (baseline) or q (candidate).
 * - n = N arms (C, D): N independent paths with the same p or q, so pass@N (any path) has
 *   probability 1 − (1 − p)^N. The selector model: when some path passed, the selector
 *   picks a passing path with probability `selectorAccuracy`, otherwise a uniformly random
 *   path (which passes with probability passes/N). 1 is the oracle selector (the config
 *   default), making selected@N = pass@N = 1 − (1 − p)^N; 0 is a random pick (selected@N = p).
 * - Tokens: each path bills the case's token scale × a lognormal path factor (log-SD 0.2);
 *   an arm sums its paths, capped at B (the runner would stop there: budget_exhausted).
 *   Latency: each path takes the case's latency scale × a lognormal factor; an n = N arm
 *   takes the slowest path (paths run side by side). Passing does not change either, and
 *   both variants share the case scales: under the null both arms have the same distribution.
 *   `candidateTokenRatio` / `candidateLatencyRatio` scale the candidate to exercise the gates.
 *
 * Random streams are separate per purpose (`singles` for A/B, `bestOfN` for C/D) so adding or
 * dropping the Best-of-N arms leaves A and B draw for draw the same.
 */
import type { ResultRecord } from '../ledger/records.js';
import { LEDGER_SCHEMA_VERSION } from '../ledger/records.js';
import { armName } from '../runner/plan.js';
import { createRng, type Rng } from '../stats/index.js';
import type { LatentCase } from './latent.js';

export interface ArmModel {
  /** Every n to generate; 1 is always generated. */
  bestOfN: readonly number[];
  /** B: tokens one case may bill in one arm (tokens). */
  budget: number;
  /** P(the selector picks a passing path | some path passed); 1 = oracle. */
  selectorAccuracy: number;
  /** Candidate tokens per path ÷ baseline tokens per path; 1 under the null. */
  candidateTokenRatio: number;
  /** Candidate latency ÷ baseline latency; 1 under the null. */
  candidateLatencyRatio: number;
  /** Log-SD of one path's tokens around the case scale (default 0.2); 0.6+ gives the heavy tails of agent runs. */
  pathTokenLogSd?: number;
}

export interface StreamSeeds {
  singles: number;
  bestOfN: number;
}

/** Per-path log-SD of tokens and latency around the case scale. */
const PATH_LOG_SD = 0.2;
/** Share of a path's tokens that are completion (output) tokens. */
const COMPLETION_SHARE = 0.4;

interface Arm {
  variant: 'baseline' | 'candidate';
  n: number;
}

export function syntheticResults(cases: readonly LatentCase[], model: ArmModel, seeds: StreamSeeds): ResultRecord[] {
  const results: ResultRecord[] = [];
  const singles = createRng(seeds.singles);
  for (const latent of cases) {
    results.push(armResult(latent, { variant: 'baseline', n: 1 }, model, singles));
    results.push(armResult(latent, { variant: 'candidate', n: 1 }, model, singles));
  }
  const bestOfN = createRng(seeds.bestOfN);
  for (const n of [...new Set(model.bestOfN)].filter((k) => k > 1).sort((x, y) => x - y)) {
    for (const latent of cases) {
      results.push(armResult(latent, { variant: 'baseline', n }, model, bestOfN));
      results.push(armResult(latent, { variant: 'candidate', n }, model, bestOfN));
    }
  }
  return results;
}

function armResult(latent: LatentCase, arm: Arm, model: ArmModel, rng: Rng): ResultRecord {
  const candidate = arm.variant === 'candidate';
  const p = candidate ? latent.candidateP : latent.baselineP;
  const tokenScale = latent.tokenScale * (candidate ? model.candidateTokenRatio : 1);
  const latencyScale = latent.latencyScale * (candidate ? model.candidateLatencyRatio : 1);
  let passes = 0;
  let tokens = 0;
  let latency = 0;
  for (let path = 0; path < arm.n; path += 1) {
    if (rng.next() < p) passes += 1;
    tokens += Math.max(1, Math.round(tokenScale * Math.exp((model.pathTokenLogSd ?? PATH_LOG_SD) * rng.normal())));
    latency = Math.max(latency, latencyScale * Math.exp(PATH_LOG_SD * rng.normal()));
  }
  // Always drawn, even for n = 1, so the stream's length does not depend on outcomes.
  const pick = rng.next();
  const passed = arm.n === 1 ? passes === 1 : passes > 0 && pick < model.selectorAccuracy + (1 - model.selectorAccuracy) * (passes / arm.n);
  const exhausted = tokens > model.budget;
  const total = Math.min(tokens, model.budget);
  const completion = Math.round(total * COMPLETION_SHARE);
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'result',
    run_id: 'calibrate',
    case_id: latent.id,
    arm: armName(arm.variant, arm.n),
    variant: arm.variant,
    n: arm.n,
    epoch: 0,
    split: 'val',
    category: latent.category,
    passed,
    passed_any: passes > 0,
    passes,
    selected_path: undefined,
    judge_score: undefined,
    paths: [],
    prompt_tokens: total - completion,
    completion_tokens: completion,
    total_tokens: total,
    calls_missing_usage: 0,
    calls: arm.n,
    retries: 0,
    budget: model.budget,
    budget_exhausted: exhausted,
    over_budget: false,
    latency_ms: Math.round(latency),
    ts: '',
  };
}
