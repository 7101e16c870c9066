/**
 * `scorer.expected_pattern`: datasets often store the answer inside a longer text — GSM8K's
 * `answer` is the worked solution ending in `#### 42`. The pattern's first group, matched
 * against the expected text (after `field`, if set), is what the scorer compares. A case
 * whose expected text does not match is a scorer error naming the case, never a silent fail.
 */
import { IsobudgetError } from '../core/errors.js';
import { expectedText } from './expected-text.js';
import { preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export function withExpectedPattern(scorer: Scorer, pattern: string, field: string | undefined): Scorer {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    throw new IsobudgetError('config_invalid', `scorer.expected_pattern is not a valid regular expression: ${(error as Error).message}`, { location: { key: 'scorer.expected_pattern' } });
  }
  return {
    name: scorer.name,
    version: `${scorer.version}+expected_pattern`,
    async score(input: ScoreInput): Promise<Score> {
      const text = expectedText(input.evalCase, field);
      if (!text.ok) return scoreError(text.error);
      const value = regex.exec(text.text)?.[1];
      if (value === undefined) return scoreError(`case ${input.evalCase.id}: expected ${preview(text.text.length > 80 ? `…${text.text.slice(-79)}` : text.text)} does not match scorer.expected_pattern /${pattern}/ (or its first group is empty)`);
      return scorer.score({ ...input, evalCase: { ...input.evalCase, expected: value } });
    },
  };
}
