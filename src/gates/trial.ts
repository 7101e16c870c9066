/**
 * A gate on a subset of the test split (`--limit`, `--cases`, `--sample --seed`) is a trial:
 * it runs layers 1–4 on those cases so a first paid gate can be cheap, but it never promotes.
 * Significance on 5 of 200 cases says little about the other 195, and a promotion must rest on
 * the split the gate's thresholds were set for. A trial still counts as a use of the test
 * split (eval drift): it looked at test cases, and each look is a chance to tune to them.
 */
import type { EvalCase } from '../core/case.js';
import { describeSelection, selectCases, type CaseSelection } from '../runner/case-selection.js';

export interface GateTrial {
  /** The selection as the flags gave it: `--limit 5`, `--cases a,b`, `--sample 20 --seed 7`. */
  selection: string;
  /** Test cases the trial runs (cases). */
  cases: number;
  /** Test cases in the split (cases). */
  of: number;
  /** Why it cannot promote, in the words the gate prints. */
  reason: string;
}

/**
 * The trial a selection makes of the test split; undefined without a selection. Selecting
 * here, before the gate opens, makes an unknown `--cases` id a usage error that records no
 * gate and spends nothing. A selection that takes every case (e.g. `--limit` past the end)
 * is still a trial: the run is marked partial, and the rule is simplest when the flags decide.
 */
export function gateTrial(selection: CaseSelection | undefined, testCases: readonly EvalCase[] | undefined): GateTrial | undefined {
  if (selection === undefined) return undefined;
  const of = testCases?.length ?? 0;
  const cases = testCases === undefined ? 0 : selectCases(testCases, selection).length;
  const described = describeSelection(selection);
  return {
    selection: described,
    cases,
    of,
    reason: `a gate on ${cases} of ${of} test cases (${described}) is a trial: run it on the whole test split to promote`,
  };
}
