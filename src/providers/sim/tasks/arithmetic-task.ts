/**
 * Arithmetic: "Compute 47 + 38 * 3." The sim evaluates the expression; when it slips it
 * makes the mistake that fits the expression (precedence, dropped parentheses, an off-by-ten
 * product). A thorough skill gets a long worked answer with the same correctness: length
 * never buys accuracy here, which is what the verbose-judge example shows.
 */
import { accuracyFor } from '../profiles.js';
import type { SimTask, SolveContext } from './spec.js';
import { evaluate, formatTokens, tokenize, type Evaluation } from './expression.js';
import { workedAnswer } from './worked-answer.js';

const REQUEST = /\b(?:compute|calculate|evaluate|what is)\b\s*:?\s*([-\d\s+*×()−]+)/i;

function kindOf(expression: string): string {
  if (/[()]/.test(expression)) return 'arith:parentheses';
  const multiplies = /[*×]/.test(expression);
  const adds = /[-+−]/.test(expression);
  if (multiplies && adds) return 'arith:precedence';
  if (multiplies) return 'arith:multiply';
  const small = (expression.match(/\d+/g) ?? []).every((n) => Number(n) < 20);
  return small ? 'arith:easy' : 'arith:add-sub';
}

/** The wrong evaluation this kind of expression invites. */
function slipped(tokens: Parameters<typeof evaluate>[0], kind: string, correct: Evaluation, draw: (label: string) => number): Evaluation {
  const mode = kind === 'arith:precedence' ? 'left-to-right' : kind === 'arith:parentheses' ? 'no-parens' : undefined;
  const wrong = mode ? evaluate(tokens, mode) : undefined;
  if (wrong && wrong.value !== correct.value) return wrong;
  const offset = (kind === 'arith:multiply' ? 10 : 1) * (draw('slip') < 0.5 ? -1 : 1);
  const steps = correct.steps.map((s, i) => (i === correct.steps.length - 1 ? { ...s, result: s.result + offset } : s));
  return { value: correct.value + offset, steps };
}

export const arithmeticTask: SimTask = {
  name: 'arithmetic',
  solve(context: SolveContext): string | undefined {
    const raw = REQUEST.exec(context.userText)?.[1]?.trim();
    if (!raw || !/\d/.test(raw) || !/[-+*×−]/.test(raw.replace(/^-/, ''))) return undefined;
    const tokens = tokenize(raw);
    const correct = tokens ? evaluate(tokens, 'standard') : undefined;
    if (!tokens || !correct) return undefined;
    const expression = formatTokens(tokens);
    const kind = kindOf(raw);
    const competent = context.draw('competence') < accuracyFor(context.profile, kind);
    const result = competent ? correct : slipped(tokens, kind, correct, context.draw);
    const final = /\[\[/.test(context.skill) ? `[[${result.value}]]` : context.style.terse ? String(result.value) : `Answer: ${result.value}`;
    if (context.style.terse) return final;
    if (context.style.thorough) return workedAnswer(expression, result, final, context.profile.verbosity);
    return `${expression} = ${result.value}. ${final}`;
  },
};
