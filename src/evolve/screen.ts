/**
 * Step 4 of a round: screen one candidate against the incumbent on val with the four-arm run
 * at the same B, and decide its verdict with the gain interval at the loop's corrected level.
 *
 * This is the loop's one screening boundary: `screenCandidate` runs a fixed-sample screen
 * (every val case, every arm). An anytime-valid sequential screen (issue 14) can replace it
 * behind the same signature — same request, same outcome — run at the level it is given.
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
  /** Two-sided confidence of the n=1 gain interval (the Bonferroni level). */
  confidence: number;
  /** Bootstrap rounds of the analysis (enough resamples in the corrected interval's tails). */
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

export const screenCandidate: ScreenCandidate = async (context, request) => {
  const runId = screenRunId(context.evolveId, request.round, request.candidate.version);
  const runDir = await runStep(context, {
    inputs: screenInputs(request.val, request.incumbent, request.candidate, context.concurrency),
    runId,
    outDir: context.paths.round(request.round).dir,
    what: `the round-${request.round} screen of version ${request.candidate.version}`,
  });
  const verdict = verdictForRun(runDir, { gainConfidence: request.confidence, bootstrapRounds: request.bootstrapRounds });
  return { verdict, runDir: relative(context.paths.dir, runDir), tokens: runTokens(runDir) };
};
