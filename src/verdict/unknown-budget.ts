/**
 * A gain with B unknown is not a same-budget gain (issue 24 item 4), pure. A ledger written by
 * someone else that states no `budget` and was analysed without `--budget B` cannot show its
 * arms shared one B, so nothing in it proves the candidate did not simply spend more: such a
 * `real_evolution` is `inconclusive` until B is given (then every unit is checked against it).
 */
import type { Check, VerdictName } from './record.js';

export const BUDGET_KNOWN_CHECK = 'budget_known';

/** The verdict to keep, and the check that says why when B is unknown. */
export function requireKnownBudget(verdict: VerdictName, budget: number | undefined): { verdict: VerdictName; check: Check | undefined } {
  if (budget !== undefined) return { verdict, check: undefined };
  const blocks = verdict === 'real_evolution';
  return {
    verdict: blocks ? 'inconclusive' : verdict,
    check: { name: BUDGET_KNOWN_CHECK, passed: !blocks, detail: 'B is unknown (the ledger states no budget): give --budget B so every unit is checked against it' },
  };
}
