/**
 * `normalized`: output and expected are equal after `normalizeText` (case, whitespace,
 * surrounding quotes/backticks, a trailing period).
 *
 * Also passes when only the LAST non-empty line of the output normalizes to the expected:
 * models often write a preamble ("Let me think… The answer is:") and put the answer on its
 * own final line. An answer embedded mid-sentence ("The answer is Paris.") does not pass —
 * use `contains` or `regex` for that.
 */
import { expectedText } from './expected-text.js';
import { lastNonEmptyLine, normalizeText } from './normalize-text.js';
import { passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface NormalizedScorerOptions {
  /** Dot path into an object `expected` holding the answer. */
  field?: string;
}

export function normalizedScorer(options: NormalizedScorerOptions = {}): Scorer {
  return {
    name: 'normalized',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const expected = expectedText(evalCase, options.field);
      if (!expected.ok) return scoreError(expected.error);
      const want = normalizeText(expected.text);
      const whole = normalizeText(output);
      if (whole === want) return passFail(true, 'normalized output equals expected');
      const lastLine = lastNonEmptyLine(output);
      if (lastLine !== undefined && normalizeText(lastLine) === want) {
        return passFail(true, 'last non-empty line of the output equals expected after normalization');
      }
      return passFail(false, `normalized output ${preview(whole)} != expected ${preview(want)}`);
    },
  };
}
