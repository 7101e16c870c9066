/**
 * The scorer contract. Scorers are small factories (`exactScorer(config)` → `Scorer`); a
 * scorer that cannot score (bad module, missing binary, timeout) returns a `Score` with
 * `error` instead of throwing, so one broken case is recorded in the ledger rather than
 * aborting the run.
 */
import type { EvalCase } from '../core/case.js';
import type { ChatMessage } from '../core/messages.js';
import type { JudgeGrade } from '../ledger/records.js';

/** A model call a scorer or selector may make (an LLM judge). */
export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  /** Which path the call is about (recorded on the call record). */
  path: number;
}

export type ModelReply = { ok: true; text: string; tokens: number | undefined } | { ok: false; error: string };

/**
 * Model access the runner lends to scorers and selectors: every call is recorded in the
 * ledger with its role, and counted toward B when `budget.include_judge` says so.
 */
export interface ModelAccess {
  complete(request: ModelRequest, role: 'judge' | 'select'): Promise<ModelReply>;
}

export interface Score {
  passed: boolean;
  /** Graded credit in [0, 1]; 1/0 for pass/fail scorers. */
  value: number;
  /** Why it passed or failed, for the report (never contains secrets). */
  explanation?: string;
  /** Set when the scorer itself failed; the score then counts as not passed. */
  error?: string;
  /** A judge's structured grade (judge scorers only). */
  judge?: JudgeGrade;
}

export interface ScoreInput {
  /** The model's final output text for one path. */
  output: string;
  evalCase: EvalCase;
  /** Cancels long-running scorers (module, command). */
  signal?: AbortSignal;
  /** Model calls (judge scorers); absent where no runner lends them. */
  models?: ModelAccess;
  /** Path number of the output, for call records. */
  path?: number;
}

export interface Scorer {
  /** Scorer type, e.g. `exact`, `command`. */
  readonly name: string;
  /** Recorded in the run manifest; bumped whenever the scoring rule changes meaning. */
  readonly version: string;
  score(input: ScoreInput): Promise<Score>;
}
