/**
 * `calibrate --evolve`: how often the loop accepts an edit that is no better, over many
 * simulated loops with a null proposer — and how often greedy, uncorrected acceptance would.
 *
 * What is real and what is synthetic. Each loop runs the loop's own decision code: the
 * proposer input (proposer-input.ts), `sim-proposer-null` answering it through the simulator
 * engine, the proposal checks (check-proposal.ts), the verdict (`analyzeResults` →
 * `decideVerdict`) with the gain interval at the loop's corrected level, the round's choice
 * (`pickAccepted`) and the stop rules (`stopAfterRound`). Only the screening runs are
 * synthetic, drawn like `calibrate` draws experiments (synthetic-results.ts): per loop one val
 * split of latent cases, per screen fresh n=1 outcomes of incumbent and candidate with the same
 * per-case pass probabilities. Why not the four-arm run itself: the simulator keys its luck on
 * the case, not the skill, so a cosmetic edit gives identical outputs case by case and a null
 * screen could never accept anything — exact zero, whatever the correction. A real model
 * re-samples when its prompt changes; the synthetic draw is that model. (The n=N arms are
 * left out: `real_evolution` reads only the n=1 arms, categories and regression set.)
 */
import { drawLatentCases, summarizePopulation, type LatentCase, type Population } from '../../calibrate/latent.js';
import { syntheticResults, type ArmModel } from '../../calibrate/synthetic-results.js';
import { analyzeResults, type AnalysisContext } from '../../analysis/analyze-run.js';
import type { GatesConfig } from '../../config/types.js';
import { countTokens } from '../../core/tokens.js';
import { simulate } from '../../providers/sim/engine.js';
import { createRng, wilsonInterval, type Interval, type Rng } from '../../stats/index.js';
import { decideVerdict } from '../../verdict/decide.js';
import type { VerdictName } from '../../verdict/record.js';
import { bodyOf, checkProposal, type EarlierProposal } from '../check-proposal.js';
import { pickAccepted, screenBootstrapRounds, screenConfidence, stopAfterRound, type RoundOutcome } from '../decide.js';
import { addedLines, directionWords } from '../direction.js';
import { parseProposals } from '../parse-proposals.js';
import { proposerMessages } from '../proposer-input.js';
import type { LineageEntry } from '../types.js';
import { nextVersions } from '../versions.js';
import { parseFrontMatter, stringField } from '../../memory/front-matter.js';
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
  familyAlpha: number;
  screenConfidence: number;
  /** Bootstrap rounds of a corrected screen's analysis (decide.ts: 25 resamples per tail). */
  screenBootstrapRounds: number;
  /** The loop as built: real_evolution at the Bonferroni-corrected level. */
  corrected: PolicyResult;
  /** Greedy and uncorrected: real_evolution at the verdict's own level, the best one per round. */
  uncorrected: PolicyResult;
  /** Screens run per loop (mean) and proposals dropped by the checks (total). */
  screensPerLoop: number;
  dropped: number;
  /** Verdicts at the corrected level; `below_min_gain`: screens whose point delta ruled out real_evolution. */
  verdicts: Partial<Record<VerdictName | 'below_min_gain', number>>;
}

interface Policy {
  history: RoundOutcome[];
  stopped: boolean;
  accepted: number;
}

const EPOCH = new Date(0);

export function simulateNullLoops(input: NullLoopsInput): NullLoopsReport {
  const familyAlpha = 1 - input.gates.confidence;
  const confidence = screenConfidence(familyAlpha, input.rounds * input.candidatesPerRound);
  const nullPopulation: Population = { ...input.population, effect: 0 };
  const { shiftFactor } = summarizePopulation(nullPopulation, input.seed + 1);
  const master = createRng(input.seed);
  const skill = input.skill ?? NULL_SKILL;
  const totals = { corrected: { loops: 0, accepted: 0 }, uncorrected: { loops: 0, accepted: 0 }, screens: 0, dropped: 0 };
  const verdicts: Partial<Record<VerdictName | 'below_min_gain', number>> = {};
  const settings = { rounds: input.rounds, stopAfterNoGain: input.stopAfterNoGain > 0 ? input.stopAfterNoGain : input.rounds };
  for (let loop = 0; loop < input.loops; loop += 1) {
    const cases = drawLatentCases(nullPopulation, shiftFactor, input.cases, createRng(master.nextUint32()));
    const screens = createRng(master.nextUint32());
    const policies = { corrected: policy(), uncorrected: policy() };
    const lineage: LineageEntry[] = [];
    for (let round = 1; round <= input.rounds && !(policies.corrected.stopped && policies.uncorrected.stopped); round += 1) {
      const proposals = nullProposals(skill, round, lineage, input);
      totals.dropped += proposals.filter((p) => p === undefined).length;
      const decided = proposals.filter((p): p is LineageEntry => p !== undefined).map((entry) => {
        totals.screens += 1;
        const outcome = screen(cases, input, confidence, screens);
        verdicts[outcome.corrected] = (verdicts[outcome.corrected] ?? 0) + 1;
        lineage.push({ ...entry, verdict: outcome.corrected === 'below_min_gain' ? 'no_gain' : outcome.corrected });
        return outcome;
      });
      for (const name of ['corrected', 'uncorrected'] as const) {
        const state = policies[name];
        if (state.stopped) continue;
        const winner = pickAccepted(decided.map((d) => ({ verdict: d[name] === 'below_min_gain' ? 'no_gain' : d[name], n1Delta: d.delta, ciLow: 0 })));
        if (winner !== undefined) state.accepted += 1;
        state.history.push({ accepted: winner !== undefined, bestOfNOnly: false });
        state.stopped = stopAfterRound(state.history, settings) !== undefined;
      }
    }
    for (const name of ['corrected', 'uncorrected'] as const) {
      totals[name].accepted += policies[name].accepted;
      if (policies[name].accepted > 0) totals[name].loops += 1;
    }
  }
  const result = (name: 'corrected' | 'uncorrected'): PolicyResult => ({
    loopsAccepting: totals[name].loops,
    rate: totals[name].loops / input.loops,
    ci95: wilsonInterval(totals[name].loops, input.loops, 0.95),
    accepted: totals[name].accepted,
  });
  return {
    loops: input.loops, rounds: input.rounds, candidatesPerRound: input.candidatesPerRound, cases: input.cases, familyAlpha, screenConfidence: confidence,
    screenBootstrapRounds: screenBootstrapRounds(input.gates.bootstrapRounds, familyAlpha, input.rounds * input.candidatesPerRound),
    corrected: result('corrected'), uncorrected: result('uncorrected'),
    screensPerLoop: totals.screens / input.loops, dropped: totals.dropped, verdicts,
  };
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

/**
 * One synthetic null screen, judged twice: at the corrected level and at the verdict's own.
 * Speed: `real_evolution` needs the n=1 point delta ≥ min_same_budget_gain first (rule 3), so
 * a screen below it can be accepted by neither policy and is not analysed (under the null that
 * is ~95% of screens); every screen that could be accepted gets the full analysis and verdict.
 */
function screen(cases: readonly LatentCase[], input: NullLoopsInput, confidence: number, rng: Rng): { corrected: VerdictName | 'below_min_gain'; uncorrected: VerdictName | 'below_min_gain'; delta: number } {
  const seeds = { singles: rng.nextUint32(), bestOfN: rng.nextUint32() };
  const seed = rng.nextUint32();
  const results = syntheticResults(cases, { ...input.arms, bestOfN: [1] }, seeds);
  const delta = results.reduce((sum, r) => sum + (r.passed ? 1 : 0) * (r.variant === 'candidate' ? 1 : -1), 0) / cases.length;
  if (delta < input.gates.minSameBudgetGain) return { corrected: 'below_min_gain', uncorrected: 'below_min_gain', delta };
  const context = (gates: GatesConfig): AnalysisContext => ({ runId: 'calibrate-evolve', experiment: 'calibrate-evolve', split: 'val', budget: input.arms.budget, bestOfN: [1], baselineId: 'incumbent', candidateId: 'candidate', gates, seed, nonBindingArms: [] });
  const rounds = screenBootstrapRounds(input.gates.bootstrapRounds, 1 - input.gates.confidence, input.rounds * input.candidatesPerRound);
  const corrected = decideVerdict(analyzeResults(results, context({ ...input.gates, gainConfidence: confidence, bootstrapRounds: rounds })), EPOCH);
  const uncorrected = decideVerdict(analyzeResults(results, context(input.gates)), EPOCH);
  return { corrected: corrected.verdict, uncorrected: uncorrected.verdict, delta };
}

function entry(round: number, slot: number, version: string, parent: string, diff: string, summary: string): LineageEntry {
  return {
    version, parent, round, slot, diff, summary, status: 'rejected', reason: '', repaired: false, verdict: null, n1_delta: null, ci95: null, confidence: null,
    tokens_per_success_ratio: null, proposer_tokens: 0, screen_tokens: 0, run_dir: null, memory_id: null, candidate_id: null, baseline_pass: null, baseline_pass_ci: null, candidate_pass: null, candidate_pass_ci: null,
  };
}
