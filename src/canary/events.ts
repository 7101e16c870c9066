/**
 * Canary events: one JSON object per line, tagged with the variant that served it. Every
 * event keeps its budget and n (seed §6): a failure is only interpretable with both.
 */
import { z } from 'zod';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { jsonErrorText } from '../core/json-error.js';
import type { CanaryVariant } from './assign.js';

export interface CanaryEvent {
  variant: CanaryVariant;
  /** ms since epoch. */
  time: number;
  /** The task succeeded (scorer, check, or user acceptance); undefined when not known. */
  passed: boolean | undefined;
  /** Explicit user feedback; undefined when the user gave none. */
  feedback: 'positive' | 'negative' | 'neutral' | undefined;
  /** Billed tokens of the task (tokens). */
  tokens: number;
  /** Wall latency of the task (ms). */
  latencyMs: number;
  /** Paths sampled (Best-of-N n). */
  n: number;
  /** Token budget the task ran under (tokens). */
  budget: number;
  /** Task/case identity, to follow one failure across n. */
  caseId: string | undefined;
  line: number;
}

/**
 * The two names `canary assign` prints, and nothing else: an event tagged `treatment` or
 * `baseline` is a tagging mistake to fix, not something to guess a side for.
 */
const VARIANTS: readonly CanaryVariant[] = ['canary', 'control'];

const eventSchema = z.looseObject({
  variant: z.string().refine((v) => (VARIANTS as readonly string[]).includes(v), { error: `must be one of canary, control (what \`isobudget canary assign\` prints)` }),
  timestamp: z.union([z.string(), z.number()]).optional(),
  ts: z.union([z.string(), z.number()]).optional(),
  passed: z.boolean().nullable().optional(),
  feedback: z.enum(['positive', 'negative', 'neutral']).nullable().optional(),
  tokens: z.number().nonnegative(),
  latency_ms: z.number().nonnegative().optional(),
  latency: z.number().nonnegative().optional(),
  n: z.int().positive(),
  budget: z.number().positive(),
  case_id: z.union([z.string(), z.number()]).optional(),
  task_id: z.union([z.string(), z.number()]).optional(),
});

export function parseEvents(text: string, file: string): CanaryEvent[] {
  const events: CanaryEvent[] = [];
  const errors: IsobudgetError[] = [];
  const fail = (line: number, key: string | undefined, message: string): void => {
    errors.push(new IsobudgetError('canary_event', message, { location: { file, line, ...(key ? { key } : {}) }, hint: 'one JSON object per line: {"variant":"canary","timestamp":"2026-06-01T10:00:00Z","passed":true,"tokens":1200,"latency_ms":900,"n":1,"budget":200000}' }));
  };
  // Quote the parser's view of a line only from a file that is JSONL of objects at all.
  const quote = /^\s*\{/m.test(text);
  // biome-ignore lint/suspicious/useIterableCallbackReturn: `return fail(...)` ends one line's checks
  text.split('\n').forEach((raw, index) => {
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
      for (const issue of parsed.error.issues) fail(line, issue.path.join('.') || undefined, issue.message);
      return;
    }
    const e = parsed.data;
    const stamp = e.timestamp ?? e.ts;
    const time = typeof stamp === 'number' ? stamp : stamp === undefined ? Number.NaN : Date.parse(stamp);
    if (!Number.isFinite(time)) return fail(line, 'timestamp', 'missing or unreadable timestamp (ISO 8601 or ms since epoch)');
    const latency = e.latency_ms ?? e.latency;
    if (latency === undefined) return fail(line, 'latency_ms', 'missing latency_ms');
    if ((e.passed === undefined || e.passed === null) && (e.feedback === undefined || e.feedback === null)) return fail(line, 'passed', 'an event needs `passed` or `feedback`');
    const id = e.case_id ?? e.task_id;
    events.push({ variant: e.variant as CanaryVariant, time, passed: e.passed ?? undefined, feedback: e.feedback ?? undefined, tokens: e.tokens, latencyMs: latency, n: e.n, budget: e.budget, caseId: id === undefined ? undefined : String(id), line });
  });
  if (errors.length > 0) throw errors.length === 1 ? (errors[0] as IsobudgetError) : new IsobudgetErrors(errors.slice(0, 20));
  if (events.length === 0) throw new IsobudgetError('canary_event', 'no events', { location: { file } });
  return events;
}
