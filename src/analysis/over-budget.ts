/** Whether a unit billed more than B, pure: the runner's own flag, or its billed total against B. */
import type { ResultRecord } from '../ledger/records.js';

/** `budget`: B to check against (e.g. `analyze --ledger --budget B`); undefined: the unit's own `budget`. */
export function isOverBudget(result: ResultRecord, budget: number | undefined): boolean {
  const limit = budget ?? result.budget;
  return result.over_budget || (result.total_tokens !== undefined && result.total_tokens > limit);
}
