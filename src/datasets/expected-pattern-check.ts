/**
 * `scorer.expected_pattern` checked against every case before a run spends a token: an answer
 * the pattern cannot read (a GSM8K row without `#### N`) is bad input, reported by file, line
 * and key — not a scorer error discovered case by case during the run. Pure.
 */
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';

export interface ExpectedPatternCheck {
  pattern: string;
  /** The row key the expected value came from (`answer` under datasets.fields), for the error's key. */
  key: string;
  /** `scorer.field`: a path into an object `expected`. */
  field?: string;
  /** Errors listed before "and N more" (default 20). */
  maxErrors?: number;
}

export function checkExpectedPattern(cases: readonly EvalCase[], check: ExpectedPatternCheck): IsobudgetError[] {
  const regex = new RegExp(check.pattern);
  const errors: IsobudgetError[] = [];
  let more = 0;
  for (const evalCase of cases) {
    const text = expectedText(evalCase.expected, check.field);
    if (text !== undefined && (regex.exec(text)?.[1] ?? '') !== '') continue;
    if (errors.length >= (check.maxErrors ?? 20)) {
      more += 1;
      continue;
    }
    const shown = text === undefined ? 'has no text to match' : `${JSON.stringify(text.length > 60 ? `…${text.slice(-59)}` : text)} does not match`;
    errors.push(new IsobudgetError('dataset_expected_pattern', `\`${check.key}\` ${shown} scorer.expected_pattern /${check.pattern}/ (its first group is the expected value)`, {
      location: { file: evalCase.source.file, line: evalCase.source.line, key: check.key },
      hint: 'give the row an answer the pattern reads (GSM8K: end it with `#### 42`), or change scorer.expected_pattern',
    }));
  }
  if (more > 0) errors.push(new IsobudgetError('dataset_more_errors', `and ${more} more case(s) whose expected value does not match scorer.expected_pattern`, { hint: 'fix the rows above first, then run again to see the rest' }));
  return errors;
}

function expectedText(expected: unknown, field: string | undefined): string | undefined {
  let value = expected;
  if (field !== undefined) {
    for (const part of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
