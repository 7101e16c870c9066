/**
 * Integer arithmetic expressions (+ − * and parentheses) with a step log, so the sim can
 * show its work. Three evaluation modes model the classic mistakes: `standard`,
 * `left-to-right` (ignores precedence) and `no-parens` (drops the parentheses).
 */

export type EvalMode = 'standard' | 'left-to-right' | 'no-parens';

export interface Step {
  left: number;
  op: '+' | '-' | '*';
  right: number;
  result: number;
}

export interface Evaluation {
  value: number;
  steps: Step[];
}

type Token = number | '+' | '-' | '*' | '(' | ')';

export function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  const pattern = /\s*(\d+|[-+*×x()−])/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(text)) !== null) {
    consumed = pattern.lastIndex;
    const raw = match[1] ?? '';
    if (/^\d+$/.test(raw)) tokens.push(Number(raw));
    else if (raw === '×' || raw === 'x') tokens.push('*');
    else if (raw === '−') tokens.push('-');
    else tokens.push(raw as Token);
  }
  return text.slice(consumed).trim() === '' && tokens.length > 0 ? tokens : undefined;
}

/** Evaluates, logging one step per operation; undefined for malformed input. */
export function evaluate(tokens: readonly Token[], mode: EvalMode): Evaluation | undefined {
  const steps: Step[] = [];
  const source = mode === 'no-parens' ? tokens.filter((t) => t !== '(' && t !== ')') : tokens;
  let position = 0;
  const peek = () => source[position];
  const apply = (left: number, op: Step['op'], right: number): number => {
    const result = op === '+' ? left + right : op === '-' ? left - right : left * right;
    steps.push({ left, op, right, result });
    return result;
  };
  const factor = (): number | undefined => {
    const token = source[position++];
    if (typeof token === 'number') return token;
    if (token === '-') {
      const inner = factor();
      return inner === undefined ? undefined : -inner;
    }
    if (token === '(') {
      const inner = sum();
      return source[position++] === ')' ? inner : undefined;
    }
    return undefined;
  };
  const product = (): number | undefined => {
    let value = factor();
    while (value !== undefined && peek() === '*') {
      position += 1;
      const right = factor();
      value = right === undefined ? undefined : apply(value, '*', right);
    }
    return value;
  };
  const sum = (): number | undefined => {
    const operand = mode === 'left-to-right' ? factor : product;
    let value = operand();
    for (let op = peek(); value !== undefined && (op === '+' || op === '-' || (mode === 'left-to-right' && op === '*')); op = peek()) {
      position += 1;
      const right = operand();
      value = right === undefined ? undefined : apply(value, op, right);
    }
    return value;
  };
  const value = sum();
  return value === undefined || position !== source.length ? undefined : { value, steps };
}

export function formatTokens(tokens: readonly Token[]): string {
  return tokens
    .map((t) => String(t))
    .join(' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')');
}
