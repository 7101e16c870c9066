/**
 * Exit codes, documented in the README. `--gate` makes a verdict an exit code: 0 only for
 * `real_evolution`, so a CI step fails for everything a human must look at.
 */
export const EXIT = {
  ok: 0,
  /** A bug or an unexpected failure (please report it). */
  internal: 1,
  /** The input was wrong: config, dataset, arguments. The message says where and how to fix it. */
  usage: 2,
  /**
   * The run could not write its ledger or run directory (disk full, I/O error, read-only):
   * it stopped cleanly, the manifest says `interrupted`; free space and `run --resume`.
   */
  ledgerWrite: 3,
  /** --gate: the candidate is not promotable (no_gain, inconclusive, budget_growth, budget_leakage). */
  notPromotable: 10,
  /** --gate: the candidate regressed. */
  regression: 11,
  /** --gate: an invariant broke (budget exceeded, arms on different cases). */
  invalid: 12,
  /** `gate`: layers 1–4 passed; the candidate waits for a human in `isobudget review`. */
  awaitingReview: 20,
  /** Interrupted by Ctrl-C; the ledger is consistent and the run can be resumed. */
  interrupted: 130,
} as const;
