/**
 * Rewrites a model request so it cannot spend more than its key has left, pure.
 *
 * Each protocol names its output cap differently: Anthropic `max_tokens` (required; Claude
 * Code asks for 128,000), OpenAI chat `max_completion_tokens` or `max_tokens` (per choice,
 * times `n`), Responses `max_output_tokens` (Codex sends none, so one is added). With
 * extended thinking, Anthropic requires `thinking.budget_tokens` < `max_tokens`, so that
 * budget is lowered with the cap — or thinking is switched off when too little is left.
 */
import { PRIMARY_CAP, type BudgetFields } from './budget-fields.js';
import type { GenerationProtocol } from './routes.js';

type Body = Record<string, unknown>;

export interface ClampResult {
  body: Body;
  /** The cap the client asked for (tokens), if any. */
  requested: number | undefined;
  /** The per-choice cap sent upstream (tokens): every cap field of the body that leaves holds it. */
  maxTokens: number;
  /** Sequences the call may generate; the worst case is maxTokens × choices. */
  choices: number;
  /** True when the budget, not the client, set the cap. */
  clamped: boolean;
}

/** Anthropic's minimum thinking budget (tokens). */
const MIN_THINKING_BUDGET = 1024;

/**
 * `allowedOutput`: tokens left for output after the prompt estimate, across all choices.
 * Every cap field present (and the protocol's own when none is) is set to the one reserved
 * cap, so whichever field an upstream honours, it caps at what was reserved; a body that
 * already says exactly that is passed on as it came.
 */
export function clampRequest(protocol: GenerationProtocol, body: Body, fields: BudgetFields, allowedOutput: number): ClampResult {
  const { choices, requested } = fields;
  const perChoice = Math.floor(allowedOutput / choices);
  const maxTokens = requested === undefined ? perChoice : Math.min(requested, perChoice);
  const clamped = requested === undefined || maxTokens < requested;
  const targets = fields.present.length > 0 ? fields.present : [PRIMARY_CAP[protocol]];
  if (targets.every((field) => body[field] === maxTokens)) return { body, requested, maxTokens, choices, clamped };
  const out: Body = { ...body };
  for (const field of targets) out[field] = maxTokens;
  if (protocol === 'anthropic-messages') fitThinking(out, maxTokens);
  return { body: out, requested, maxTokens, choices, clamped };
}

function fitThinking(body: Body, maxTokens: number): void {
  const thinking = body['thinking'];
  if (typeof thinking !== 'object' || thinking === null || (thinking as Body)['type'] !== 'enabled') return;
  const budget = (thinking as Body)['budget_tokens'];
  if (typeof budget !== 'number' || budget < maxTokens) return;
  body['thinking'] = maxTokens - 1 >= MIN_THINKING_BUDGET ? { ...(thinking as Body), budget_tokens: maxTokens - 1 } : { type: 'disabled' };
}

/**
 * OpenAI chat streams carry usage only when asked (`stream_options.include_usage`); without
 * it every streamed call would be recorded as usage unknown. Asking adds one final chunk
 * with empty `choices`, which the OpenAI SDKs read as documented.
 */
export function askForStreamUsage(protocol: GenerationProtocol, body: Body): Body {
  if (protocol !== 'openai-chat' || body['stream'] !== true) return body;
  const options = body['stream_options'];
  if (typeof options === 'object' && options !== null && (options as Body)['include_usage'] !== undefined) return body;
  return { ...body, stream_options: { ...(typeof options === 'object' && options !== null ? (options as Body) : {}), include_usage: true } };
}
