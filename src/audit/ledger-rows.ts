/**
 * What the direction audit keeps of each ledger record: small rows, so a year of run and
 * gateway ledgers fits in memory.
 */

/** One task: a (case, arm, epoch) result of a run, or one (run, case, arm, epoch) group of gateway calls. */
export interface AuditTask {
  /** ms since epoch. */
  time: number;
  source: 'run' | 'gateway';
  /** Billed tokens of the task; undefined when some call lacked usage (never counted as 0). */
  tokens: number | undefined;
  n: number;
  /** Attempts that were retried. */
  retries: number;
  /** Runs only: the product outcome; undefined for gateway tasks (no scorer there). */
  passed: boolean | undefined;
  budget: number | undefined;
  split: string;
  /** USD the task cost; undefined when some call had no price or no usage (never counted as 0). */
  costUsd: number | undefined;
  /**
   * Tasks this row stands for; the team database sends tasks summed per UTC hour and kind, and
   * then tokens, retries and costUsd are their sums. Default 1.
   */
  count?: number;
}

/** One model call that produced outputs (role generate, or gateway). */
export interface AuditCall {
  time: number;
  /** Completion tokens of the call (tokens); undefined when usage was missing. */
  completion: number | undefined;
  /** Outputs the call returned (native n returns several). */
  outputs: number;
  /** Calls this row stands for (the team database sends one row per hour of calls, summed); default 1. */
  count?: number;
}

export interface AuditData {
  tasks: AuditTask[];
  calls: AuditCall[];
  /** Run directories and gateway files read. */
  runs: number;
  gatewayFiles: number;
  /** Records outside the window, skipped. */
  outside: number;
}
