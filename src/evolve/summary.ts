/**
 * `summary.json`, pure: how the loop ended and why, what it spent (in total, per phase and per
 * round — from its ledgers), the n=1 pass rate on val of the incumbent round by round, from
 * start to final, and where the final skill and the gate command are.
 */
import type { EvolveScreening } from '../config/types.js';
import type { Interval } from '../verdict/record.js';
import type { Stop } from './decide.js';
import type { FinalSkill } from './final-skill.js';
import type { FinalVsStart } from './final-vs-start.js';
import type { LoopTokens } from './ledger-tokens.js';
import { EVOLVE_SCHEMA_VERSION, type EvolveSettings, type LineageEntry } from './types.js';

export type LoopStatus = 'complete' | 'stopped' | 'interrupted';

export interface ValPoint {
  round: number;
  /** Incumbent at the end of the round. */
  version: string;
  pass: number;
  /** Wilson 95% interval. */
  ci95: Interval;
}

export interface EvolveSummary {
  schema_version: number;
  evolve_id: string;
  experiment: string;
  config_path: string;
  status: LoopStatus;
  stop: Stop;
  settings: { rounds: number; candidates_per_round: number; budget_tokens: number | null; failures_per_prompt: number; max_skill_growth: number; stop_after_no_gain: number; proposer: string };
  /**
   * How the loop controls the multiple testing of screening many edits on one val split:
   * `screen_confidence` is the level of each screen's gain interval — the anytime-valid CS of a
   * sequential screen (`interval`), the bootstrap interval of a fixed one.
   */
  correction: { method: 'bonferroni'; family_alpha: number; planned_screens: number; screen_confidence: number; bootstrap_rounds: number; screening: EvolveScreening; interval: 'betting confidence sequence' | 'bootstrap' };
  /** How the screens ran and what they cost against the whole split (sequential screens stop early). */
  screening: ScreeningSummary;
  rounds_run: number;
  proposals: { total: number; accepted: number; rejected: number; dropped: number; screened: number };
  tokens: { total: number; diagnose: number; propose: number; screen: number; budget_tokens: number | null; calls_missing_usage: number; per_round: Array<{ round: number; diagnose: number; propose: number; screen: number }> };
  val: { start: ValPoint | null; final: ValPoint | null; per_round: ValPoint[] };
  final_vs_start: FinalVsStart | null;
  start_skill: { version: string; file: string };
  final_skill: FinalSkill | null;
  gate_command: string | null;
  /** Memory ids of the negative patterns this loop recorded. */
  negative_patterns: string[];
  /** Every ledger the totals were summed from, relative to the loop directory. */
  ledgers: string[];
  updated_at: string;
}

export interface ScreeningSummary {
  method: EvolveScreening;
  /** The sequential test's settings (its `confidence` is the corrected CS level); null for fixed screening. */
  sequential: { look_every: number; min_cases: number; confidence: number; gain_confidence: number; futility_confidence: number } | null;
  /** Candidates screened. */
  screens: number;
  /** Sequential screens that stopped before the whole split (efficacy, futility or leakage). */
  stopped_early: number;
  /** Σ tokens of the screens' ledgers (= tokens.screen) (tokens). */
  tokens_spent: number;
  /** Σ of what each screen would have cost on the whole split (a fixed screen: what it spent) (tokens). */
  tokens_full_split_estimate: number;
  /** tokens_spent ÷ tokens_full_split_estimate; null before any screen. */
  tokens_fraction: number | null;
}

export interface SummaryInput {
  evolveId: string;
  experiment: string;
  configPath: string;
  status: LoopStatus;
  stop: Stop;
  settings: EvolveSettings;
  roundsRun: number;
  lineage: readonly LineageEntry[];
  tokens: LoopTokens;
  start: { version: string; file: string };
  finalSkill: FinalSkill | null;
  finalVsStart: FinalVsStart | null;
  gateCommand: string | null;
  now: Date;
}

export function buildSummary(input: SummaryInput): EvolveSummary {
  const { lineage, settings, tokens } = input;
  const count = (status: LineageEntry['status']): number => lineage.filter((e) => e.status === status).length;
  const perRound = valPerRound(lineage, input.roundsRun, input.start.version);
  return {
    schema_version: EVOLVE_SCHEMA_VERSION,
    evolve_id: input.evolveId,
    experiment: input.experiment,
    config_path: input.configPath,
    status: input.status,
    stop: input.stop,
    settings: { rounds: settings.rounds, candidates_per_round: settings.candidatesPerRound, budget_tokens: settings.budgetTokens, failures_per_prompt: settings.failuresPerPrompt, max_skill_growth: settings.maxSkillGrowth, stop_after_no_gain: settings.stopAfterNoGain, proposer: settings.proposer },
    correction: {
      method: 'bonferroni', family_alpha: settings.familyAlpha, planned_screens: settings.plannedScreens, screen_confidence: settings.screenConfidence, bootstrap_rounds: settings.screenBootstrapRounds,
      screening: settings.screening, interval: settings.screening === 'sequential' ? 'betting confidence sequence' : 'bootstrap',
    },
    screening: screeningSummary(lineage, settings),
    rounds_run: input.roundsRun,
    proposals: { total: lineage.length, accepted: count('accepted'), rejected: count('rejected'), dropped: count('dropped'), screened: lineage.filter((e) => e.run_dir !== null).length },
    tokens: {
      total: tokens.total,
      diagnose: tokens.byPhase.diagnose,
      propose: tokens.byPhase.propose,
      screen: tokens.byPhase.screen,
      budget_tokens: settings.budgetTokens,
      calls_missing_usage: tokens.callsMissingUsage,
      per_round: [...tokens.byRound.entries()].filter(([round]) => round > 0).sort(([a], [b]) => a - b).map(([round, phases]) => ({ round, ...phases })),
    },
    val: { start: startPoint(lineage, input.start.version), final: perRound.at(-1) ?? startPoint(lineage, input.start.version), per_round: perRound },
    final_vs_start: input.finalVsStart,
    start_skill: input.start,
    final_skill: input.finalSkill,
    gate_command: input.gateCommand,
    negative_patterns: lineage.filter((e) => e.verdict === 'budget_leakage' && e.memory_id !== null).map((e) => e.memory_id as string),
    ledgers: tokens.ledgers,
    updated_at: input.now.toISOString(),
  };
}

function screeningSummary(lineage: readonly LineageEntry[], settings: EvolveSettings): ScreeningSummary {
  const { screening: method, sequential } = settings;
  const screened = lineage.filter((e) => e.run_dir !== null);
  const spent = screened.reduce((sum, e) => sum + e.screen_tokens, 0);
  const full = screened.reduce((sum, e) => sum + (e.tokens_full_split_estimate ?? e.screen_tokens), 0);
  return {
    method,
    sequential: sequential ? { look_every: sequential.lookEvery, min_cases: sequential.minCases, confidence: sequential.confidence ?? settings.screenConfidence, gain_confidence: sequential.gainConfidence, futility_confidence: sequential.futilityConfidence } : null,
    screens: screened.length,
    stopped_early: screened.filter((e) => e.stop_reason === 'efficacy' || e.stop_reason === 'futility' || e.stop_reason === 'leakage').length,
    tokens_spent: spent,
    tokens_full_split_estimate: full,
    tokens_fraction: full > 0 ? spent / full : null,
  };
}

/**
 * Val cases behind a lineage entry's pass rates: a sequential screen's `stopped_at`; a fixed
 * screen read the whole split, more than any sequential screen of it.
 */
function casesOf(entry: LineageEntry): number {
  return entry.stopped_at ?? Number.POSITIVE_INFINITY;
}

/** The starting skill's val pass: from the screen of it that read the most cases (the first of those). */
function startPoint(lineage: readonly LineageEntry[], version: string): ValPoint | null {
  const first = startScreen(lineage, version);
  return first && first.baseline_pass !== null && first.baseline_pass_ci ? { round: 0, version, pass: first.baseline_pass, ci95: first.baseline_pass_ci } : null;
}

function startScreen(lineage: readonly LineageEntry[], version: string): LineageEntry | undefined {
  return mostCases(lineage.filter((e) => e.parent === version && e.baseline_pass !== null && e.baseline_pass_ci !== null));
}

function mostCases(entries: readonly LineageEntry[]): LineageEntry | undefined {
  return entries.reduce<LineageEntry | undefined>((best, e) => (best === undefined || casesOf(e) > casesOf(best) ? e : best), undefined);
}

/**
 * The incumbent's val pass at the end of each round: the accepted candidate's, else the
 * incumbent's own from that round's screens — unless those read fewer cases than the estimate
 * it has (a sequential screen stopped for futility after 40 cases says little about the incumbent).
 */
function valPerRound(lineage: readonly LineageEntry[], rounds: number, startVersion: string): ValPoint[] {
  const points: ValPoint[] = [];
  let current = startPoint(lineage, startVersion);
  const start = startScreen(lineage, startVersion);
  let currentCases = start ? casesOf(start) : 0;
  for (let round = 1; round <= rounds; round += 1) {
    const entries = lineage.filter((e) => e.round === round);
    const accepted = entries.find((e) => e.status === 'accepted');
    const screened = mostCases(entries.filter((e) => e.baseline_pass !== null && e.baseline_pass_ci !== null));
    if (accepted?.version && accepted.candidate_pass !== null && accepted.candidate_pass_ci) {
      current = { round, version: accepted.version, pass: accepted.candidate_pass, ci95: accepted.candidate_pass_ci };
      currentCases = casesOf(accepted);
    } else if (screened && screened.baseline_pass !== null && screened.baseline_pass_ci && (current?.version !== screened.parent || casesOf(screened) >= currentCases)) {
      current = { round, version: screened.parent, pass: screened.baseline_pass, ci95: screened.baseline_pass_ci };
      currentCases = casesOf(screened);
    }
    if (current) points.push({ ...current, round });
  }
  return points;
}
