/**
 * The fields of a model request that decide how much it can bill, read strictly, pure.
 *
 * Upstreams disagree on them: vLLM and routers built on it honour `max_completion_tokens`
 * over `max_tokens` and coerce `"5000"` or `"8"` to numbers, so a body holding two caps, or a
 * cap or choice count as a string, would bill what the gateway never reserved. Every cap
 * field any protocol names is therefore read in every protocol, and a value that is not a
 * positive integer is refused (400) instead of guessed at; `clampRequest` then writes the one
 * reserved cap into every cap field present.
 */
import type { GenerationProtocol } from './routes.js';

type Body = Record<string, unknown>;

/** Output caps (tokens) across the three protocols. */
export const CAP_FIELDS = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;
export type CapField = (typeof CAP_FIELDS)[number];
/** Multipliers of the output: OpenAI `n`, and vLLM's `best_of` (sequences generated, of which n are returned). */
const CHOICE_FIELDS = ['n', 'best_of'] as const;

/** The cap each protocol documents: added when a body has none. */
export const PRIMARY_CAP: Readonly<Record<GenerationProtocol, CapField>> = {
  'anthropic-messages': 'max_tokens',
  'openai-chat': 'max_tokens',
  'openai-responses': 'max_output_tokens',
};

export interface BudgetFields {
  /** Cap fields the body holds (a `null` one too: it is overwritten with the cap). */
  present: CapField[];
  /** The smallest cap asked for (tokens), or undefined when none is. */
  requested: number | undefined;
  /** Sequences the call may generate, each up to the cap: max(n, best_of), 1 when absent. */
  choices: number;
}

export type BudgetFieldsRead = { ok: true; fields: BudgetFields } | { ok: false; param: string; message: string };

export function readBudgetFields(protocol: GenerationProtocol, body: Body): BudgetFieldsRead {
  const present: CapField[] = [];
  let requested: number | undefined;
  for (const field of CAP_FIELDS) {
    if (!(field in body)) continue;
    const value = body[field];
    present.push(field);
    if (value === null) continue;
    if (!isPositiveInteger(value)) return refuse(field, value, protocol);
    requested = requested === undefined ? value : Math.min(requested, value);
  }
  let choices = 1;
  for (const field of CHOICE_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (!isPositiveInteger(value)) return refuse(field, value, protocol);
    choices = Math.max(choices, value);
  }
  return { ok: true, fields: { present, requested, choices } };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function refuse(param: string, value: unknown, protocol: GenerationProtocol): BudgetFieldsRead {
  const shown = typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : JSON.stringify(value) ?? typeof value;
  const example = param === 'n' || param === 'best_of' ? 1 : 1024;
  return {
    ok: false,
    param,
    message: `isobudget gateway: '${param}' must be a positive integer (a JSON number, not a string), got ${shown}; the gateway reserves budget for it and cannot guess how ${protocol === 'anthropic-messages' ? 'the upstream' : 'an OpenAI-compatible upstream'} reads it — send e.g. "${param}": ${example}`,
  };
}
