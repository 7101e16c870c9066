/**
 * Production events for `datasets add-failures` and `evolve --failures`: the canary event
 * format (`passed` and/or `feedback`, `n`, `budget`, `tokens`, `latency_ms`, `timestamp`,
 * `case_id`, `variant`) plus the task's `input` and, where known, its `expected` answer and
 * `category`. Every event keeps the budget and n it ran under (seed §6).
 */
import { z } from 'zod';
import { IsobudgetError, IsobudgetErrors } from '../../core/errors.js';
import { jsonErrorText } from '../../core/json-error.js';

export interface FailureEvent {
  input: string;
  /** Undefined when production does not know the right answer. */
  expected: unknown;
  category: string | undefined;
  caseId: string | undefined;
  /** Whether the task succeeded; undefined when only feedback is known. */
  passed: boolean | undefined;
  feedback: 'positive' | 'negative' | 'neutral' | undefined;
  /** Paths sampled (Best-of-N n). */
  n: number;
  /** Token budget the task ran under (tokens). */
  budget: number;
  /** Billed tokens (tokens), when given. */
  tokens: number | undefined;
  /** ms since epoch, when given. */
  time: number | undefined;
  variant: string | undefined;
  line: number;
}

const eventSchema = z.looseObject({
  input: z.string().refine((s) => s.trim() !== '', { error: 'must be the task input, a non-empty string' }),
  expected: z.unknown().optional(),
  category: z.string().optional(),
  case_id: z.union([z.string(), z.number()]).optional(),
  task_id: z.union([z.string(), z.number()]).optional(),
  passed: z.boolean().nullable().optional(),
  feedback: z.enum(['positive', 'negative', 'neutral']).nullable().optional(),
  n: z.int().positive(),
  budget: z.number().positive(),
  tokens: z.number().nonnegative().optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  ts: z.union([z.string(), z.number()]).optional(),
  variant: z.string().optional(),
});

const EXAMPLE = '{"input":"Normalize this date …","expected":"2021-03-04","passed":false,"n":1,"budget":200000,"tokens":812,"latency_ms":900,"timestamp":"2026-06-01T10:00:00Z"}';

export function parseFailureEvents(text: string, file: string): FailureEvent[] {
  const events: FailureEvent[] = [];
  const errors: IsobudgetError[] = [];
  const fail = (line: number, key: string | undefined, message: string): void => {
    errors.push(new IsobudgetError('failure_event', message, { location: { file, line, ...(key ? { key } : {}) }, hint: `one JSON object per line, e.g. ${EXAMPLE}` }));
  };
  // Quote the parser's view of a line only from a file that is JSONL of objects at all.
  const quote = /^\s*\{/m.test(text);
  // biome-ignore lint/suspicious/useIterableCallbackReturn: `return fail(...)` ends one line's checks
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      fail(line, undefined, `invalid JSON: ${jsonErrorText(error, quote)}`);
      return;
    }
    const parsed = eventSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) fail(line, issue.path.join('.') || undefined, issue.path.length > 0 && issue.code === 'invalid_type' && (value as Record<string, unknown>)[String(issue.path[0])] === undefined ? 'missing (required)' : issue.message);
      return;
    }
    const e = parsed.data;
    if ((e.passed === undefined || e.passed === null) && (e.feedback === undefined || e.feedback === null)) return fail(line, 'passed', 'an event needs `passed` or `feedback`');
    const stamp = e.timestamp ?? e.ts;
    const time = typeof stamp === 'number' ? stamp : stamp === undefined ? undefined : Date.parse(stamp);
    if (time !== undefined && !Number.isFinite(time)) return fail(line, 'timestamp', 'unreadable timestamp (ISO 8601 or ms since epoch)');
    const id = e.case_id ?? e.task_id;
    events.push({
      input: e.input, expected: e.expected ?? undefined, category: e.category, caseId: id === undefined ? undefined : String(id),
      passed: e.passed ?? undefined, feedback: e.feedback ?? undefined, n: e.n, budget: e.budget, tokens: e.tokens, time, variant: e.variant, line,
    });
  });
  if (errors.length > 0) throw errors.length === 1 ? (errors[0] as IsobudgetError) : new IsobudgetErrors(errors.slice(0, 20));
  if (events.length === 0) throw new IsobudgetError('failure_event', 'no events in the file', { location: { file }, hint: `one JSON object per line, e.g. ${EXAMPLE}` });
  return events;
}

/** A failed event: `passed: false`, or negative feedback when `passed` is unknown. */
export function isFailure(event: Pick<FailureEvent, 'passed' | 'feedback'>): boolean {
  return event.passed === false || (event.passed === undefined && event.feedback === 'negative');
}
