/**
 * The judge's prompt, pure. Sections are labelled (`Task:`, `Reference:`, `Response:`) so any
 * judge model — and the simulator's — can find them; the reply is asked for as JSON with one
 * 0–1 score per dimension plus a rationale.
 */
import type { EvalCase } from '../../core/case.js';
import type { ChatMessage } from '../../core/messages.js';
import { expectedText } from '../expected-text.js';

const DEFAULT_RUBRIC = `You are a strict grader. Judge the response on each dimension independently:
- correctness: does it answer the task and agree with the reference, when one is given?
- conciseness: is it as short as the task allows (no padding, no repetition)?
- format: does it follow the requested output format?
- tone: is it plain and professional?
- budget_friendliness: does it deliver the answer without spending tokens the task did not need?
Longer is not better: do not reward length by itself.`;

export function judgeMessages(options: { rubric: string; dimensions: readonly string[]; evalCase: EvalCase; output: string }): ChatMessage[] {
  const { evalCase, output, dimensions } = options;
  const expected = expectedText(evalCase, undefined);
  const reference = evalCase.reference ?? (expected.ok ? expected.text : undefined);
  const fields = dimensions.map((d) => `"${d}": <0 to 1>`).join(', ');
  const user = [
    'Grade the response below. Score each dimension from 0 to 1.',
    '',
    `Task:\n${evalCase.input}`,
    ...(reference === undefined ? [] : ['', `Reference:\n${reference}`]),
    '',
    `Response:\n${output}`,
    '',
    `Reply with JSON only: {${fields}, "rationale": "<one sentence>"}`,
  ].join('\n');
  return [
    { role: 'system', content: options.rubric.trim() === '' ? DEFAULT_RUBRIC : options.rubric },
    { role: 'user', content: user },
  ];
}
