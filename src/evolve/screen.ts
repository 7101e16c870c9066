/**
 * Step 4 of a round: screen one candidate against the incumbent on val with the four-arm run
 * at the same B, and decide its verdict at the loop's corrected level.
 *
 * This is the loop's one screening boundary, `ScreenCandidate`; `screenCandidate` picks the
 * loop's screening (`evolve.screening`):
 * - `sequential` (the default): `isobudget run --sequential` (issue 14) — cases in a seeded
 *   order, an anytime-valid test after each block, no new case once it decides — with the
 *   confidence sequence at the Bonferroni level 1 − α/m. `real_evolution` then needs that CS
 *   above 0 at whichever look the run stopped (sequential-verdict.ts), so the loop's bound on
 *   accepting a no-better edit holds under optional stopping (decide.ts).
 * - `fixed`: every val case, every arm; the bootstrap gain interval at 1 − α/m.
 */
import { relative } from 'node:path';
import { verdictForRun } from '../verdict/verdict-for-run.js';
import type { VerdictRecord } from '../verdict/record.js';
import type { RunInputs } from '../runner/inputs.js';
import type { LoopContext } from './context.js';
import { screenInputs, type SkillFileVersion } from './derive-config.js';
import { screenRunId } from './layout.js';
import { runTokens } from './ledger-tokens.js';
import { runStep } from './run-step.js';

export interface ScreenRequest {
  round: number;
  incumbent: SkillFileVersion;
  candidate: SkillFileVersion;
  /** Two-sided confidence of the n=1 gain interval — the sequential CS or the bootstrap interval (the Bonferroni level). */
  confidence: number;
  /** Bootstrap rounds of a fixed screen's analysis (enough resamples in the corrected interval's tails). */
  bootstrapRounds: number;
  /** The val run inputs of the experiment. */
  val: RunInputs;
}

export interface ScreenOutcome {
  verdict: VerdictRecord;
  /** Run directory, relative to the loop directory. */
  runDir: string;
  /** Every token of the screen's ledgers (tokens). */
  tokens: number;
}

export type ScreenCandidate = (context: LoopContext, request: ScreenRequest) => Promise<ScreenOutcome>;

/** The loop's screening as its settings fix it (`sequential` unless the loop was started `fixed`). */
export const screenCandidate: ScreenCandidate = (context, request) => (context.settings.screening === 'sequential' ? sequentialScreen(context, request) : fixedScreen(context, request));

/** Every val case, every arm; `real_evolution` needs the bootstrap gain interval at `confidence` above 0. */
export const fixedScreen: ScreenCandidate = async (context, request) => {
  const runDir = await runScreen(context, request);
  const verdict = verdictForRun(runDir, { gainConfidence: request.confidence, bootstrapRounds: request.bootstrapRounds });
  return { verdict, runDir: relative(context.paths.dir, runDir), tokens: runTokens(runDir) };
};

/**
 * The sequential run with its CS at `confidence`. The fixed-sample intervals of its verdict stay
 * at gates.confidence (reported, marked not valid under optional stopping); the decision rests
 * on the anytime-valid evidence, which `verdict.sequential` records.
 */
export const sequentialScreen: ScreenCandidate = async (context, request) => {
  const base = context.settings.sequential;
  if (!base) throw new Error('sequentialScreen needs the loop\'s sequential settings (screening: sequential)');
  const runDir = await runScreen(context, request, { ...base, confidence: request.confidence });
  const verdict = verdictForRun(runDir, { bootstrapRounds: context.config.gates.bootstrapRounds });
  return { verdict, runDir: relative(context.paths.dir, runDir), tokens: runTokens(runDir) };
};

function runScreen(context: LoopContext, request: ScreenRequest, sequential?: NonNullable<LoopContext['settings']['sequential']>): Promise<string> {
  return runStep(context, {
    inputs: screenInputs(request.val, request.incumbent, request.candidate, context.concurrency),
    runId: screenRunId(context.evolveId, request.round, request.candidate.version),
    outDir: context.paths.round(request.round).dir,
    what: `the round-${request.round} screen of version ${request.candidate.version}`,
    ...(sequential ? { sequential } : {}),
  });
}
