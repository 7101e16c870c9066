/**
 * zod issues → config problems with plain-language messages, "did you mean" suggestions and
 * a hint taken from the field's schema description.
 */
import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';
import { describeValue, formatKeyPath, valueAt, type KeyPath } from './key-path.js';
import type { ConfigProblem } from './problem.js';
import { allowedKeysAt, descriptionAt } from './schema-walk.js';

type Issue = z.core.$ZodIssue;

const EXPECTED: Record<string, string> = {
  int: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false',
  object: 'a mapping (key: value)', array: 'a list', record: 'a mapping (key: value)',
};

function bound(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === 'array') return small ? `must have at least ${limit} item(s)` : `must have at most ${limit} item(s)`;
  if (issue.origin === 'string') return small && limit === 1 ? 'must not be empty' : `length must be ${small ? '≥' : '≤'} ${limit}`;
  const op = small ? (issue.inclusive ? '≥' : '>') : issue.inclusive ? '≤' : '<';
  return `must be ${op} ${limit}`;
}

function literalList(values: readonly unknown[]): string {
  return values.map((v) => `\`${String(v)}\``).join(', ');
}

interface Context {
  schema: z.ZodType;
  data: unknown;
}

function problem(context: Context, path: KeyPath, code: string, message: string, anchor: ConfigProblem['anchor'], hint?: string): ConfigProblem {
  const fallback = `see \`isobudget schema\` for the allowed form of \`${formatKeyPath(path)}\``;
  return { code, path, message, anchor, hint: hint ?? descriptionAt(context.schema, path, context.data) ?? fallback };
}

/** Whether a union branch failed only because the value had another JS type (e.g. a mapping given to a name enum). */
function isTypeMismatch(branch: readonly Issue[], value: unknown): boolean {
  const only = branch.length === 1 ? branch[0] : undefined;
  if (!only || only.path.length > 0) return false;
  if (only.code === 'invalid_type') return true;
  return only.code === 'invalid_value' && !only.values.some((v) => typeof v === typeof value);
}

function fromUnion(context: Context, issue: Extract<Issue, { code: 'invalid_union' }>, path: KeyPath): ConfigProblem[] {
  const value = valueAt(context.data, path);
  if (issue.discriminator !== undefined && 'options' in issue && issue.options) {
    const target = path.at(-1) === issue.discriminator ? path : [...path, issue.discriminator];
    const given = valueAt(context.data, target);
    const options = issue.options.map(String);
    if (given === undefined) return [problem(context, target, 'config_missing_key', `missing required key \`${issue.discriminator}\``, 'parent', `add \`${issue.discriminator}:\` with one of ${literalList(options)}`)];
    const guess = typeof given === 'string' ? didYouMean(given, options) : undefined;
    return [problem(context, target, 'config_invalid_value', `unknown ${issue.discriminator} ${describeValue(given)}; expected one of ${literalList(options)}${guess ? `; did you mean \`${guess}\`?` : ''}`, 'value')];
  }
  const matching = issue.errors.filter((branch) => !isTypeMismatch(branch, value));
  const chosen = matching[0];
  if (chosen) return chosen.flatMap((inner) => fromIssue(context, inner, [...path, ...(inner.path as Array<string | number>)]));
  const expected = issue.errors.map((branch) => {
    const first = branch[0];
    return first?.code === 'invalid_type' ? EXPECTED[first.expected] ?? first.expected : 'another form';
  });
  return [problem(context, path, 'config_invalid_type', `expected ${[...new Set(expected)].join(' or ')}, got ${describeValue(value)}`, 'value')];
}

function fromIssue(context: Context, issue: Issue, path: KeyPath): ConfigProblem[] {
  const value = valueAt(context.data, path);
  const last = String(path.at(-1) ?? '');
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeysAt(context.schema, path, context.data, value);
      const where = path.length === 0 ? 'at the top level' : `under \`${formatKeyPath(path)}\``;
      return issue.keys.map((key) => {
        const guess = didYouMean(key, allowed);
        const message = `unknown key \`${key}\` ${where}${guess ? `; did you mean \`${guess}\`?` : ''}`;
        const hint = guess ? `rename it to \`${guess}\`` : `remove it; allowed keys ${where}: ${allowed.join(', ')}`;
        return problem(context, [...path, key], 'config_unknown_key', message, 'key', hint);
      });
    }
    case 'invalid_type': {
      if (value === undefined) return [problem(context, path, 'config_missing_key', `missing required key \`${last}\``, 'parent')];
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return [problem(context, path, 'config_invalid_type', `expected ${expected}, got ${describeValue(value)}`, 'value')];
    }
    case 'too_small':
    case 'too_big': {
      const shown = typeof value === 'number' ? ` (got ${value})` : '';
      return [problem(context, path, 'config_out_of_range', `${bound(issue)}${shown}`, 'value')];
    }
    case 'invalid_value': {
      const options = issue.values.map(String);
      const guess = typeof value === 'string' ? didYouMean(value, options) : undefined;
      const message = `must be one of ${literalList(options)}, got ${describeValue(value)}${guess ? `; did you mean \`${guess}\`?` : ''}`;
      return [problem(context, path, 'config_invalid_value', message, 'value')];
    }
    case 'invalid_union':
      return fromUnion(context, issue, path);
    case 'custom': {
      const params = (issue.params ?? {}) as { hint?: unknown; at?: unknown };
      const anchor = params.at === 'key' || params.at === 'parent' ? params.at : 'value';
      const hint = typeof params.hint === 'string' ? params.hint : undefined;
      return [problem(context, path, 'config_invalid', issue.message, anchor, hint)];
    }
    default:
      // Formats carry their own message (set in schema.ts); anything else keeps zod's.
      return [problem(context, path, 'config_invalid', issue.message, 'value')];
  }
}

/** Every zod issue as one or more problems (unknown keys are one problem per key). */
export function problemsFromIssues(issues: readonly Issue[], schema: z.ZodType, data: unknown): ConfigProblem[] {
  const context: Context = { schema, data };
  return issues.flatMap((issue) => fromIssue(context, issue, issue.path as Array<string | number>));
}
