/**
 * `calibrate --evolve`: how often the loop accepts an edit that is no better, over many
 * simulated loops with a null proposer — and how often greedy, uncorrected acceptance would.
 *
 * What is real and what is synthetic. Each loop runs the loop's own decision code: the
 * proposer input (proposer-input.ts), `sim-proposer-null` answering it through the simulator
 * engine, the proposal checks (check-proposal.ts), the verdict (`analyzeResults` →
 * `decideVerdict`) with the gain interval at the loop's corrected level, the round's choice
 * (`pickAccepted`) and the stop rules (`stopAfterRound`) — for sequential screens (the loop's
 * default: the runner's monitor and the sequential verdict rules) and fixed ones, each with and
 * without the correction, on the same draws (null-screen.ts). Only the screening runs are
 * synthetic, drawn like `calibrate` draws experiments (synthetic-results.ts): per loop one val
 * split of latent cases, per screen fresh n=1 outcomes of incumbent and candidate with the same
 * per-case pass probabilities. Why not the four-arm run itself: the simulator keys its luck on
 * the case, not the skill, so a cosmetic edit gives identical outputs case by case and a null
 * screen could never accept anything — exact zero, whatever the correction. A real model
 * re-samples when its prompt changes; the synthetic draw is that model. (The n=N arms are
 * left out: `real_evolution` reads only the n=1 arms, categories and regression set.)
 */
import { drawLatentCases, summarizePopulation, type Population } from '../../calibrate/latent.js';
import { syntheticResults, type ArmModel } from '../../calibrate/synthetic-results.js';
import type { GatesConfig, SequentialConfig } from '../../config/types.js';
import { countTokens } from '../../core/tokens.js';
import { simulate } from '../../providers/sim/engine.js';
import { createRng, quantile, wilsonInterval, type Interval } from '../../stats/index.js';
import { bodyOf, checkProposal, type EarlierProposal } from '../check-proposal.js';
import { familyConfidence, pickAccepted, screenBootstrapRounds, screenConfidence, stopAfterRound, type RoundOutcome } from '../decide.js';
import { addedLines, directionWords } from '../direction.js';
import { parseProposals } from '../parse-proposals.js';
import { proposerMessages } from '../proposer-input.js';
import type { VerdictName } from '../../verdict/record.js';
import type { LineageEntry } from '../types.js';
import { nextVersions } from '../versions.js';
import { parseFrontMatter, stringField } from '../../memory/front-matter.js';
import { judgeNullScreen, POLICIES, type PolicyName, type ScreenCall, type ScreenLevels } from './null-screen.js';
import { NULL_SKILL } from './null-skill.js';

export interface NullLoopsInput {
  loops: number;
  rounds: number;
  candidatesPerRound: number;
  /** Val cases per loop. */
  cases: number;
  population: Population;
  arms: ArmModel;
  /** The verdict's gates; `bootstrapRounds` is what each simulated screen uses. */
  gates: GatesConfig;
  /** The sequential screens' test (the experiment's `sequential:` block or its defaults); `confidence` is the family level. */
  sequential: SequentialConfig;
  /** 0 or ≥ rounds: every loop runs all its rounds (the most screens, the worst case). */
  stopAfterNoGain: number;
  maxSkillGrowth: number;
  seed: number;
  /** The skill the null proposer edits (default: a generic one). */
  skill?: string;
}

export interface PolicyResult {
  /** Loops that accepted at least one (no-better) candidate. */
  loopsAccepting: number;
  rate: number;
  /** Wilson 95% interval of `rate`. */
  ci95: Interval;
  /** Candidates accepted, over all loops. */
  accepted: number;
}

export interface NullLoopsReport {
  loops: number;
  rounds: number;
  candidatesPerRound: number;
  cases: number;
  /** α of fixed screens (1 − gates.confidence) and each corrected fixed screen's level. */
  familyAlpha: number;
  screenConfidence: number;
  /** Bootstrap rounds of a corrected fixed screen's analysis (decide.ts: 25 resamples per tail). */
  screenBootstrapRounds: number;
  /** α of sequential screens (1 − (sequential.confidence ?? gates.confidence)) and each corrected CS's level. */
  sequentialFamilyAlpha: number;
  sequentialScreenConfidence: number;
  /** Loops accepting a no-better candidate, per policy: `sequential` is the loop as built by default, `fixed` with `screening: fixed`. */
  policies: Record<PolicyName, PolicyResult>;
  /** The corrected sequential screens' tokens ÷ the fixed screens' (the whole split): per screen (mean, p90), and per loop (mean). */
  tokens: { fractionMean: number; fractionP90: number; loopFractionMean: number };
  /** Why the corrected sequential screens stopped. */
  sequentialStops: Record<string, number>;
  /** Screens run per loop (mean) and proposals dropped by the checks (total). */
  screensPerLoop: number;
  dropped: number;
  /** Calls of the corrected screens, per screening; `below_min_gain` / `no_anytime_gain`: screens that could not be real_evolution. */
  verdicts: { sequential: Partial<Record<ScreenCall, number>>; fixed: Partial<Record<ScreenCall, number>> };
}

interface Policy {
  history: RoundOutcome[];
  stopped: boolean;
  accepted: number;
}

export function simulateNullLoops(input: NullLoopsInput): NullLoopsReport {
  const m = input.rounds * input.candidatesPerRound;
  const familyAlpha = 1 - input.gates.confidence;
  const sequentialFamilyAlpha = 1 - familyConfidence('sequential', input.gates.confidence, input.sequential.confidence);
  const levels: ScreenLevels = {
    gates: input.gates,
    arms: input.arms,
    sequential: input.sequential,
    confidence: { sequential: screenConfidence(sequentialFamilyAlpha, m), sequential_uncorrected: 1 - sequentialFamilyAlpha, fixed: screenConfidence(familyAlpha, m), uncorrected: input.gates.confidence },
    bootstrapRounds: { fixed: screenBootstrapRounds(input.gates.bootstrapRounds, familyAlpha, m), uncorrected: input.gates.bootstrapRounds },
  };
  const nullPopulation: Population = { ...input.population, effect: 0 };
  const { shiftFactor } = summarizePopulation(nullPopulation, input.seed + 1);
  const master = createRng(input.seed);
  const skill = input.skill ?? NULL_SKILL;
  const totals = Object.fromEntries(POLICIES.map((name) => [name, { loops: 0, accepted: 0 }])) as Record<PolicyName, { loops: number; accepted: number }>;
  const counts = { screens: 0, dropped: 0 };
  const verdicts: NullLoopsReport['verdicts'] = { sequential: {}, fixed: {} };
  const stops: Record<string, number> = {};
  const fractions: number[] = [];
  const loopFractions: number[] = [];
  const settings = { rounds: input.rounds, stopAfterNoGain: input.stopAfterNoGain > 0 ? input.stopAfterNoGain : input.rounds };
  for (let loop = 0; loop < input.loops; loop += 1) {
    const cases = drawLatentCases(nullPopulation, shiftFactor, input.cases, createRng(master.nextUint32()));
    const order = cases.map((c) => c.id);
    const screens = createRng(master.nextUint32());
    const policies = Object.fromEntries(POLICIES.map((name) => [name, policy()])) as Record<PolicyName, Policy>;
    const lineage: LineageEntry[] = [];
    const spent = { sequential: 0, fixed: 0 };
    for (let round = 1; round <= input.rounds && !POLICIES.every((name) => policies[name].stopped); round += 1) {
      const proposals = nullProposals(skill, round, lineage, input);
      counts.dropped += proposals.filter((p) => p === undefined).length;
      const decided = proposals.filter((p): p is LineageEntry => p !== undefined).map((entry) => {
        counts.screens += 1;
        const seeds = { singles: screens.nextUint32(), bestOfN: screens.nextUint32() };
        const seed = screens.nextUint32();
        const results = syntheticResults(cases, { ...input.arms, bestOfN: [1] }, seeds);
        const judged = judgeNullScreen(results, order, levels, seed);
        count(verdicts.sequential, judged.calls.sequential);
        count(verdicts.fixed, judged.calls.fixed);
        stops[judged.stop] = (stops[judged.stop] ?? 0) + 1;
        fractions.push(judged.tokensFraction);
        spent.sequential += judged.tokensFraction;
        spent.fixed += 1;
        lineage.push({ ...entry, verdict: verdictOf(judged.calls.sequential) });
        return judged;
      });
      for (const name of POLICIES) {
        const state = policies[name];
        if (state.stopped) continue;
        const winner = pickAccepted(decided.map((d) => ({ verdict: verdictOf(d.calls[name]), n1Delta: d.delta[name], ciLow: 0 })));
        if (winner !== undefined) state.accepted += 1;
        state.history.push({ accepted: winner !== undefined, bestOfNOnly: false });
        state.stopped = stopAfterRound(state.history, settings) !== undefined;
      }
    }
    // Every screen's fixed cost is one whole split (the cases are the same), so the loop's share is the mean of its screens'.
    if (spent.fixed > 0) loopFractions.push(spent.sequential / spent.fixed);
    for (const name of POLICIES) {
      totals[name].accepted += policies[name].accepted;
      if (policies[name].accepted > 0) totals[name].loops += 1;
    }
  }
  const result = (name: PolicyName): PolicyResult => ({
    loopsAccepting: totals[name].loops,
    rate: totals[name].loops / input.loops,
    ci95: wilsonInterval(totals[name].loops, input.loops, 0.95),
    accepted: totals[name].accepted,
  });
  const mean = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);
  return {
    loops: input.loops, rounds: input.rounds, candidatesPerRound: input.candidatesPerRound, cases: input.cases,
    familyAlpha, screenConfidence: levels.confidence.fixed, screenBootstrapRounds: levels.bootstrapRounds.fixed,
    sequentialFamilyAlpha, sequentialScreenConfidence: levels.confidence.sequential,
    policies: Object.fromEntries(POLICIES.map((name) => [name, result(name)])) as Record<PolicyName, PolicyResult>,
    tokens: { fractionMean: mean(fractions), fractionP90: quantile(fractions, 0.9) ?? Number.NaN, loopFractionMean: mean(loopFractions) },
    sequentialStops: stops,
    screensPerLoop: counts.screens / input.loops, dropped: counts.dropped, verdicts,
  };
}

/** What the round's choice reads: a call that ruled out real_evolution reads as no_gain. */
function verdictOf(call: ScreenCall): VerdictName {
  return call === 'below_min_gain' || call === 'no_anytime_gain' ? 'no_gain' : call;
}

function count(counts: Partial<Record<ScreenCall, number>>, call: ScreenCall): void {
  counts[call] = (counts[call] ?? 0) + 1;
}

function policy(): Policy {
  return { history: [], stopped: false, accepted: 0 };
}

/**
 * The round's proposals from `sim-proposer-null`, through the real request, parser and
 * checks. Under the null a false acceptance changes no case's probability, so the incumbent
 * stays the starting skill's text (the proposer only sees what it tried before).
 */
function nullProposals(skill: string, round: number, lineage: readonly LineageEntry[], input: NullLoopsInput): Array<LineageEntry | undefined> {
  const front = parseFrontMatter(skill).data;
  const version = stringField(front, 'version') ?? '1';
  const skillName = stringField(front, 'name') ?? 'null-skill';
  const versions = nextVersions([version, ...lineage.map((e) => e.version).filter((v): v is string => v !== null)], input.candidatesPerRound);
  const startTokens = countTokens(skill);
  const messages = proposerMessages({
    skillName, incumbent: { version, text: skill }, versions, maxTokens: Math.floor(input.maxSkillGrowth * startTokens), startTokens, maxGrowth: input.maxSkillGrowth,
    recall: { negatives: [], skills: [], tried: [...lineage] }, diagnosis: undefined,
  });
  const reply = simulate({ model: 'sim-proposer-null', messages, maxTokens: 4096, temperature: 0.7, n: 1 }, { seed: 0 }).choices[0]?.text ?? '';
  const parsed = parseProposals(reply);
  const earlier: EarlierProposal[] = lineage.map((e) => ({ label: `round ${e.round} version ${e.version ?? '?'}`, words: directionWords(addedLines(e.diff)), body: undefined }));
  return versions.map((expected, index) => {
    const proposal = parsed.find((p) => p.slot === index + 1);
    if (!proposal) return undefined;
    const check = checkProposal(proposal, { skillName, incumbent: { version, text: skill }, expectedVersion: expected, startTokens, maxGrowth: input.maxSkillGrowth, heldOut: [], contaminationMinChars: 8, earlier, negatives: [] });
    if (!check.ok) return undefined;
    earlier.push({ label: `round ${round} version ${expected}`, words: directionWords(addedLines(proposal.diff ?? '')), body: bodyOf(check.text) });
    return entry(round, index + 1, expected, version, proposal.diff ?? '', proposal.summary);
  });
}

function entry(round: number, slot: number, version: string, parent: string, diff: string, summary: string): LineageEntry {
  return {
    version, parent, round, slot, diff, summary, status: 'rejected', reason: '', repaired: false, verdict: null, n1_delta: null, ci95: null, confidence: null, screening: null, stopped_at: null, stop_reason: null, tokens_full_split_estimate: null,
    tokens_per_success_ratio: null, proposer_tokens: 0, screen_tokens: 0, run_dir: null, memory_id: null, candidate_id: null, baseline_pass: null, baseline_pass_ci: null, candidate_pass: null, candidate_pass_ci: null,
  };
}
