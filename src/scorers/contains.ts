/** `contains`: the expected text occurs somewhere in the output. */
import { expectedText } from './expected-text.js';
import { passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface ContainsScorerOptions {
  /** Dot path into an object `expected` holding the answer. */
  field?: string;
  ignoreCase?: boolean;
}

export function containsScorer(options: ContainsScorerOptions = {}): Scorer {
  const ignoreCase = options.ignoreCase ?? false;
  return {
    name: 'contains',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const expected = expectedText(evalCase, options.field);
      if (!expected.ok) return scoreError(expected.error);
      // Every string contains '': passing everything would hide a dataset bug.
      if (expected.text === '') return scoreError(`case ${evalCase.id}: expected is empty, so every output would contain it`);
      const haystack = ignoreCase ? output.toLowerCase() : output;
      const needle = ignoreCase ? expected.text.toLowerCase() : expected.text;
      const passed = haystack.includes(needle);
      return passFail(passed, `output ${passed ? 'contains' : 'does not contain'} ${preview(expected.text)}${ignoreCase ? ' (ignoring case)' : ''}`);
    },
  };
}
