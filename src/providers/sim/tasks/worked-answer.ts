/**
 * The long answer a "be thorough" skill gets: restatement, method, one step per operation,
 * a check and a summary. Roughly 150–300 tokens; `verbosity` adds side remarks, the way
 * chattier models pad their answers.
 */
import type { Evaluation, Step } from './expression.js';

const SIDE_REMARKS = [
  'A note on notation: all the numbers here are whole numbers and the asterisk stands for multiplication, so no rounding is involved at any point.',
  'It is worth being careful here, because the most common mistake with expressions like this is to apply the operations strictly from left to right instead of respecting their precedence.',
  'Working in small, explicit steps also makes it easy for a reader to verify each intermediate value independently, which is good practice for any calculation.',
];

function describe(step: Step): string {
  if (step.op === '+') return `Adding ${step.right} to ${step.left} gives ${step.result}.`;
  if (step.op === '-') return `Subtracting ${step.right} from ${step.left} leaves ${step.result}.`;
  return `Multiplying ${step.left} by ${step.right} gives ${step.result}.`;
}

function inverseCheck(step: Step): string {
  if (step.op === '+') return `Reversing the last step, ${step.result} - ${step.right} = ${step.result - step.right}, which is the value we started that step from.`;
  if (step.op === '-') return `Reversing the last step, ${step.result} + ${step.right} = ${step.result + step.right}, which is the value we started that step from.`;
  return `Reversing the last step, dividing ${step.result} by ${step.right} should bring us back to ${step.left}.`;
}

export function workedAnswer(expression: string, result: Evaluation, final: string, verbosity: number): string {
  const last = result.steps[result.steps.length - 1];
  const remarks = SIDE_REMARKS.slice(0, Math.max(0, Math.round(verbosity * 2)));
  const parts = [
    `Let me restate the problem: we need to evaluate the expression ${expression} exactly, as an integer.`,
    'Approach: I will follow the standard order of operations. Anything in parentheses is evaluated first, then multiplication, then addition and subtraction from left to right. Working one operation at a time keeps every intermediate value easy to check.',
    ...remarks,
    result.steps.map((step, i) => `Step ${i + 1}: ${step.left} ${step.op} ${step.right} = ${step.result}. ${describe(step)}`).join('\n'),
    `Check: I re-read the expression and confirmed that each operation was applied in the right order and that every intermediate value was carried into the next step correctly.${last ? ` ${inverseCheck(last)}` : ''}`,
    `Summary: putting the steps together, the value of ${expression} is ${result.value}.`,
    `Final answer: ${final}`,
  ];
  return parts.join('\n\n');
}
