/** The Best-of-N selector contract: given n paths of one case, pick the one the arm reports. */
import type { EvalCase } from '../../core/case.js';
import type { ModelAccess, Score } from '../../scorers/spec.js';

export interface SelectorInput {
  /** Final output of each path, indexed by path number. */
  outputs: string[];
  evalCase: EvalCase;
  /** The main scorer's score of each path, when the runner already computed them. */
  scores?: Score[];
  signal?: AbortSignal;
  /** Model calls (judge selector); absent where no runner lends them. */
  models?: ModelAccess;
}

export interface Selection {
  /** Chosen path; undefined when no path could be chosen (no outputs, nothing to vote on). */
  index: number | undefined;
  /** Why this path, for the report. */
  reason: string;
}

export interface Selector {
  readonly name: string;
  select(input: SelectorInput): Promise<Selection>;
}
