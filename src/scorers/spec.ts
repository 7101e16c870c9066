/**
 * The scorer contract. Scorers are small factories (`exactScorer(config)` → `Scorer`); a
 * scorer that cannot score (bad module, missing binary, timeout) returns a `Score` with
 * `error` instead of throwing, so one broken case is recorded in the ledger rather than
 * aborting the run.
 */
import type { EvalCase } from '../core/case.js';

export interface Score {
  passed: boolean;
  /** Graded credit in [0, 1]; 1/0 for pass/fail scorers. */
  value: number;
  /** Why it passed or failed, for the report (never contains secrets). */
  explanation?: string;
  /** Set when the scorer itself failed; the score then counts as not passed. */
  error?: string;
}

export interface ScoreInput {
  /** The model's final output text for one path. */
  output: string;
  evalCase: EvalCase;
  /** Cancels long-running scorers (module, command). */
  signal?: AbortSignal;
}

export interface Scorer {
  /** Scorer type, e.g. `exact`, `command`. */
  readonly name: string;
  /** Recorded in the run manifest; bumped whenever the scoring rule changes meaning. */
  readonly version: string;
  score(input: ScoreInput): Promise<Score>;
}
