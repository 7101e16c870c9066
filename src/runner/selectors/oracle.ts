/**
 * `oracle`: picks the first path the main scorer passes.
 *
 * It reads the answer key, so the selected@N it yields equals pass@N — an UPPER BOUND on what
 * any real selector could reach, never a product metric: no deployed system can pick by the
 * expected answer. Report it as pass@N, next to pass@1 (DESIGN §1, invariant 3).
 */
import type { Scorer } from '../../scorers/spec.js';
import { scoresFor } from './main-scores.js';
import type { Selection, Selector, SelectorInput } from './spec.js';

export function oracleSelector(mainScorer: Scorer): Selector {
  return {
    name: 'oracle',
    async select(input: SelectorInput): Promise<Selection> {
      if (input.outputs.length === 0) return { index: undefined, reason: 'no paths' };
      const scores = await scoresFor(input, mainScorer);
      const index = scores.findIndex((score) => score.passed);
      if (index === -1) return { index: 0, reason: `no path of ${scores.length} passed the main scorer; path 0 kept` };
      const passing = scores.filter((score) => score.passed).length;
      return { index, reason: `path ${index} is the first passing path (${passing}/${scores.length} passed; oracle uses the answer key)` };
    },
  };
}
