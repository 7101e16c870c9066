/**
 * `numeric`: the last number in the output must be within `tolerance` of the expected
 * number — absolute (|a − e| ≤ tol) or relative (|a − e| ≤ tol·|e|). With a relative
 * tolerance and expected 0 only an exact 0 passes.
 */
import { IsobudgetError } from '../core/errors.js';
import { extractLastNumber, parseNumber } from './extract-number.js';
import { passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface NumericScorerOptions {
  /** Allowed difference: absolute units, or a fraction of |expected| when `relative`. */
  tolerance?: number;
  relative?: boolean;
}

export function numericScorer(options: NumericScorerOptions = {}): Scorer {
  const tolerance = options.tolerance ?? 0;
  const relative = options.relative ?? false;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new IsobudgetError('scorer_tolerance_invalid', `numeric tolerance must be a finite number ≥ 0, got ${tolerance}`, {
      location: { key: 'scorer.tolerance' },
    });
  }
  return {
    name: 'numeric',
    version: '1.0.0',
    async score({ output, evalCase }: ScoreInput): Promise<Score> {
      const expected = expectedNumber(evalCase.expected);
      if (expected === undefined) return scoreError(`case ${evalCase.id}: expected ${preview(evalCase.expected)} is not a number`);
      const actual = extractLastNumber(output);
      if (actual === undefined) return passFail(false, 'no number found in the output');
      const bound = relative ? tolerance * Math.abs(expected) : tolerance;
      const difference = Math.abs(actual - expected);
      // A few ulps of slack so that 1.1 vs 1 with tolerance 0.1 passes despite binary floats.
      const slack = 4 * Number.EPSILON * Math.max(Math.abs(actual), Math.abs(expected), bound);
      const passed = difference <= bound + slack;
      const within = relative ? `${tolerance} relative (±${bound})` : `±${tolerance}`;
      return passFail(passed, `last number ${actual} vs expected ${expected}: ${passed ? 'within' : 'outside'} ${within}`);
    },
  };
}

function expectedNumber(expected: unknown): number | undefined {
  if (typeof expected === 'number') return Number.isFinite(expected) ? expected : undefined;
  if (typeof expected === 'string') return parseNumber(expected);
  return undefined;
}
