/** The scorer `init --from-dataset` starts with, from what the expected answers look like. Pure. */
import type { EvalCase } from '../../core/case.js';
import type { TemplateOptions } from './init-template.js';

const NUMBER = /^\s*-?[\d,]*\.?\d+(?:e[-+]?\d+)?\s*$/i;

export function guessScorer(cases: readonly EvalCase[]): TemplateOptions['scorer'] {
  const expected = cases.map((c) => c.expected);
  if (expected.every((e) => typeof e === 'number' || (typeof e === 'string' && NUMBER.test(e)))) {
    return { yaml: '{ type: numeric, tolerance: 1e-6 }', comment: 'Every expected answer is a number: the last number of the output must match it, within 1e-6.' };
  }
  return { yaml: 'normalized', comment: 'Here: the answer must equal the expected text, case, spaces and punctuation forgiven.' };
}
