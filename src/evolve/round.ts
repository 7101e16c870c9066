/**
 * One round: diagnose → recall and propose → screen each surviving candidate → remember each
 * verdict → decide. A step that cannot run (budget, Ctrl-C) ends the round early: what was
 * screened is still decided, the proposals left unscreened are recorded as dropped, and the
 * stop is handed to the loop.
 */
import { join } from 'node:path';
import { ingestRun, loadRunForMemory } from '../memory/ingest-run.js';
import type { RunInputs } from '../runner/inputs.js';
import { wilsonInterval } from '../stats/index.js';
import { LoopStopped, type LoopContext } from './context.js';
import { isAcceptable, pickAccepted, type RoundOutcome, type Stop } from './decide.js';
import type { SkillFileVersion } from './derive-config.js';
import { diagnoseRound } from './diagnose.js';
import { proposeRound, type Proposal } from './propose.js';
import type { ScreenCandidate, ScreenOutcome } from './screen.js';
import type { LineageEntry } from './types.js';

export interface RoundResult {
  entries: LineageEntry[];
  /** The candidate that replaced the incumbent, if one did. */
  accepted: SkillFileVersion | undefined;
  outcome: RoundOutcome;
  stop: Stop | undefined;
}

export async function runRound(
  context: LoopContext, round: number, incumbent: SkillFileVersion, lineage: readonly LineageEntry[],
  inputs: { train: RunInputs; val: RunInputs }, screen: ScreenCandidate,
): Promise<RoundResult> {
  const diagnosis = await diagnoseRound(context, round, incumbent, inputs.train);
  context.log(`round ${round}: incumbent v${incumbent.version} passes ${diagnosis.passed}/${diagnosis.cases} train cases; ${diagnosis.modes.length} failure modes`);
  const proposals = await proposeRound(context, round, incumbent, diagnosis, lineage);
  const entries: LineageEntry[] = [];
  const screened: Array<{ entry: LineageEntry; outcome: ScreenOutcome; candidate: SkillFileVersion }> = [];
  let stop: Stop | undefined;
  for (const proposal of proposals) {
    const entry = baseEntry(round, incumbent, proposal);
    entries.push(entry);
    if (!proposal.check.ok) {
      entry.reason = `${proposal.repaired ? 'after one repair: ' : ''}${proposal.check.reason}`;
      context.log(`round ${round}: proposal ${proposal.slot} dropped — ${entry.reason}`);
      continue;
    }
    if (stop) {
      entry.reason = `not screened: ${stop.message}`;
      continue;
    }
    const candidate: SkillFileVersion = { version: proposal.check.version, text: proposal.check.text, variantId: `${context.skillName}-v${proposal.check.version}.${context.evolveId}`, file: join(context.paths.round(round).candidates, `v${proposal.check.version}.md`) };
    try {
      const outcome = await screen(context, { round, incumbent, candidate, confidence: context.settings.screenConfidence, bootstrapRounds: context.settings.screenBootstrapRounds, val: inputs.val });
      entry.memory_id = await remember(context, join(context.paths.dir, outcome.runDir));
      fillScreen(entry, outcome, candidate);
      screened.push({ entry, outcome, candidate });
      context.log(`round ${round}: v${candidate.version} → ${outcome.verdict.verdict} (n=1 delta ${signed(entry.n1_delta)}, ${intervalName(entry)} [${signed(entry.ci95?.[0] ?? null)}, ${signed(entry.ci95?.[1] ?? null)}]${stopText(entry)})`);
    } catch (error) {
      if (!(error instanceof LoopStopped)) throw error;
      stop = error.stop;
      entry.reason = `not screened: ${stop.message}`;
    }
  }
  const winner = pickAccepted(screened.map(({ outcome, entry }) => ({ verdict: outcome.verdict.verdict, n1Delta: entry.n1_delta ?? 0, ciLow: entry.ci95?.[0] ?? 0 })));
  screened.forEach(({ entry, outcome }, index) => {
    const level = pct(context.settings.screenConfidence);
    if (index === winner) {
      entry.status = 'accepted';
      entry.reason = `real_evolution with its ${intervalName(entry)} above 0 (corrected for ${context.settings.plannedScreens} screens${stopText(entry)}): replaces v${incumbent.version}`;
    } else {
      entry.status = 'rejected';
      entry.reason = isAcceptable(outcome.verdict.verdict) ? `real_evolution, but version ${screened[winner ?? 0]?.entry.version ?? '?'} gained more this round` : `${outcome.verdict.verdict} at the ${level} level: ${outcome.verdict.reason}`;
    }
  });
  const accepted = winner === undefined ? undefined : screened[winner]?.candidate;
  return { entries, accepted, outcome: { accepted: accepted !== undefined, bestOfNOnly: screened.some(({ outcome }) => outcome.verdict.verdict === 'budget_leakage') }, stop };
}

async function remember(context: LoopContext, runDir: string): Promise<string | null> {
  const run = loadRunForMemory(runDir);
  await ingestRun(run, context.store, context.now());
  const records = await context.store.listRecords({ candidateId: run.verdict.candidate_id });
  return records.find((r) => r.run_ids.includes(run.manifest.run_id))?.memory_id ?? null;
}

function baseEntry(round: number, incumbent: SkillFileVersion, proposal: Proposal): LineageEntry {
  return {
    // The version the slot was given: unique in the loop (the checks hold a screened proposal to it).
    version: proposal.version,
    parent: incumbent.version,
    round,
    slot: proposal.slot,
    diff: proposal.diff,
    summary: proposal.summary,
    status: 'dropped',
    reason: '',
    repaired: proposal.repaired,
    verdict: null,
    n1_delta: null,
    ci95: null,
    confidence: null,
    screening: null,
    stopped_at: null,
    stop_reason: null,
    tokens_full_split_estimate: null,
    tokens_per_success_ratio: null,
    proposer_tokens: proposal.proposerTokens,
    screen_tokens: 0,
    run_dir: null,
    memory_id: null,
    candidate_id: null,
    baseline_pass: null,
    baseline_pass_ci: null,
    candidate_pass: null,
    candidate_pass_ci: null,
  };
}

function fillScreen(entry: LineageEntry, outcome: ScreenOutcome, candidate: SkillFileVersion): void {
  const same = outcome.verdict.same_budget;
  const sequential = outcome.verdict.sequential;
  entry.verdict = outcome.verdict.verdict;
  entry.n1_delta = same?.delta ?? sequential?.n1.delta ?? null;
  // The interval the decision rests on: under optional stopping only the anytime-valid CS is valid.
  entry.ci95 = sequential ? [...sequential.n1.cs] : (same?.ci95 ?? null);
  entry.confidence = sequential ? sequential.method.confidence : (same?.confidence ?? null);
  entry.screening = sequential ? 'sequential' : 'fixed';
  entry.stopped_at = sequential?.stopped_at ?? null;
  entry.stop_reason = sequential?.stop_reason ?? null;
  entry.tokens_full_split_estimate = sequential?.tokens_full_split_estimate ?? null;
  entry.tokens_per_success_ratio = same?.tokens_per_success_growth ?? null;
  entry.screen_tokens = outcome.tokens;
  entry.run_dir = outcome.runDir;
  entry.candidate_id = candidate.variantId;
  entry.baseline_pass = same?.baseline_pass ?? null;
  entry.candidate_pass = same?.candidate_pass ?? null;
  // Single rates at 95%, for the report's per-round chart (the gain interval is the corrected one).
  entry.baseline_pass_ci = same ? wilsonInterval(Math.round(same.baseline_pass * same.cases), same.cases, 0.95) : null;
  entry.candidate_pass_ci = same ? wilsonInterval(Math.round(same.candidate_pass * same.cases), same.cases, 0.95) : null;
}

function intervalName(entry: LineageEntry): string {
  const level = entry.confidence === null ? '' : `${pct(entry.confidence)} `;
  return entry.screening === 'sequential' ? `anytime-valid ${level}CS` : `${level}CI`;
}

function stopText(entry: LineageEntry): string {
  return entry.stopped_at === null ? '' : `; stopped after ${entry.stopped_at} val cases: ${entry.stop_reason ?? '?'}`;
}

function signed(value: number | null): string {
  return value === null ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;
}

function pct(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`;
}
