/**
 * `verifier`: runs a scorer on every path and picks the first that passes; when none does,
 * path 0 is kept (the arm then fails, as an n=1 arm would).
 *
 * When no verifier scorer is configured the main scorer is used — which reads the answer key
 * and so behaves like `oracle`. A product-valid verifier uses only what exists at inference
 * time (e.g. a `command` scorer running the task's visible tests).
 */
import type { Score, Scorer } from '../../scorers/spec.js';
import { scoreAll } from './main-scores.js';
import type { Selection, Selector, SelectorInput } from './spec.js';

export interface VerifierSelectorOptions {
  /** The scorer that verifies each path. */
  verifier: Scorer;
  /** True when `verifier` is the main scorer, so the runner's scores can be reused. */
  isMainScorer: boolean;
}

export function verifierSelector(options: VerifierSelectorOptions): Selector {
  return {
    name: 'verifier',
    async select(input: SelectorInput): Promise<Selection> {
      if (input.outputs.length === 0) return { index: undefined, reason: 'no paths' };
      const reusable = options.isMainScorer && input.scores !== undefined && input.scores.length === input.outputs.length;
      const scores: Score[] = reusable && input.scores !== undefined ? input.scores : await scoreAll(input, options.verifier);
      const errors = scores.filter((score) => score.error !== undefined).length;
      const errorNote = errors > 0 ? `; verifier errored on ${errors} path(s)` : '';
      const index = scores.findIndex((score) => score.passed);
      if (index === -1) {
        return { index: 0, reason: `no path of ${scores.length} passed verifier ${options.verifier.name}; path 0 kept${errorNote}` };
      }
      const passing = scores.filter((score) => score.passed).length;
      return { index, reason: `path ${index} is the first to pass verifier ${options.verifier.name} (${passing}/${scores.length} passed)${errorNote}` };
    },
  };
}
