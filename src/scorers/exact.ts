/** `exact`: the output must equal the expected text, character for character. */
import { expectedText } from './expected-text.js';
import { passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface ExactScorerOptions {
  /** Dot path into an object `expected` holding the answer. */
  field?: string;
}

export function exactScorer(options: ExactScorerOptions = {}): Scorer {
  return {
    name: 'exact',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const expected = expectedText(evalCase, options.field);
      if (!expected.ok) return scoreError(expected.error);
      if (output === expected.text) return passFail(true, 'output equals expected');
      // No trimming by design (exact means exact), but say so when it is the only difference.
      const hint = output.trim() === expected.text.trim() ? ' (differs only in surrounding whitespace; the normalized scorer ignores it)' : '';
      return passFail(false, `output ${preview(output)} != expected ${preview(expected.text)}${hint}`);
    },
  };
}
