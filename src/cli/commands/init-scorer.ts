/**
 * What `init --from-dataset` infers from the file: which keys hold the input and the answer
 * when they are not called `input`/`expected` (a Hugging Face `question`/`answer` file), and
 * a scorer that fits the answers (numbers → numeric; GSM8K's `#### 42` → numeric with
 * `expected_pattern`). Pure.
 */
import type { EvalCase } from '../../core/case.js';
import type { DatasetFields } from '../../datasets/index.js';
import type { TemplateOptions } from './init-template.js';

const NUMBER = /^\s*-?[\d,]*\.?\d+(?:e[-+]?\d+)?\s*$/i;
const GSM8K_ANSWER = /####\s*-?[\d,.]+\s*$/;
/** The pattern written into experiment.yaml, as YAML single-quoted text. */
export const GSM8K_PATTERN = '#### *(-?[\\d,.]+)\\s*$';

const INPUT_KEYS = ['question', 'prompt', 'problem', 'query', 'instruction', 'text'];
const EXPECTED_KEYS = ['answer', 'solution', 'target', 'output', 'label', 'response', 'completion'];

/** `datasets.fields` for a row that lacks isobudget's names but has common ones; undefined when none is needed or none fits. */
export function guessFields(row: Record<string, unknown>): DatasetFields | undefined {
  const fields: DatasetFields = {};
  if (!('input' in row) && !('messages' in row)) {
    const input = INPUT_KEYS.find((key) => typeof row[key] === 'string');
    if (input !== undefined) fields.input = input;
  }
  if (!('expected' in row) && !('reference' in row)) {
    const expected = EXPECTED_KEYS.find((key) => row[key] !== undefined && row[key] !== null);
    if (expected !== undefined) fields.expected = expected;
  }
  return Object.keys(fields).length === 0 ? undefined : fields;
}

export function guessScorer(cases: readonly EvalCase[]): TemplateOptions['scorer'] {
  const expected = cases.map((c) => c.expected);
  if (expected.every((e) => typeof e === 'number' || (typeof e === 'string' && NUMBER.test(e)))) {
    return { yaml: '{ type: numeric, tolerance: 1e-6 }', comment: 'Every expected answer is a number: the last number of the output must match it, within 1e-6.' };
  }
  if (expected.every((e) => typeof e === 'string' && GSM8K_ANSWER.test(e))) {
    return { yaml: `{ type: numeric, expected_pattern: '${GSM8K_PATTERN}' }`, comment: 'Every answer ends in `#### N` (GSM8K): the number after #### is compared with the last number of the output.' };
  }
  return { yaml: 'normalized', comment: 'Here: the answer must equal the expected text, case, spaces and punctuation forgiven.' };
}
