/**
 * `regex`: the output must match a pattern — the configured `pattern`, or, when none is
 * configured, the case's `expected` read as a pattern (per-case patterns).
 */
import { IsobudgetError } from '../core/errors.js';
import { errorMessage, passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface RegexScorerOptions {
  /** JavaScript RegExp source; undefined = use each case's `expected`. */
  pattern?: string;
  /** RegExp flags, e.g. `i`, `s`, `m`, `u`. */
  flags?: string;
}

export function regexScorer(options: RegexScorerOptions = {}): Scorer {
  const flags = options.flags ?? '';
  // A bad configured pattern is a config error: fail before the run, not on every case.
  if (options.pattern !== undefined) {
    try {
      new RegExp(options.pattern, flags);
    } catch (thrown) {
      throw new IsobudgetError('scorer_regex_invalid', `invalid regex /${options.pattern}/${flags}: ${errorMessage(thrown)}`, {
        location: { key: 'scorer.pattern' },
      });
    }
  }
  return {
    name: 'regex',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const source = options.pattern ?? evalCase.expected;
      if (typeof source !== 'string') {
        return scoreError(`case ${evalCase.id}: no scorer pattern configured and expected is not a string pattern`);
      }
      let regex: RegExp;
      try {
        // A fresh RegExp per call: with the g or y flag `test` is stateful (lastIndex).
        regex = new RegExp(source, flags);
      } catch (thrown) {
        return scoreError(`case ${evalCase.id}: invalid regex in expected: ${errorMessage(thrown)}`);
      }
      const match = regex.exec(output);
      if (match === null) return passFail(false, `output does not match /${source}/${flags}`);
      return passFail(true, `matched ${preview(match[0])} at ${match.index}`);
    },
  };
}
