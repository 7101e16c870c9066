/**
 * Tokens providers bill beyond a prompt's text, as they publish them, pure.
 *
 * OpenAI, cookbook "How to count tokens with tiktoken" (num_tokens_from_messages): every
 * message costs 3 tokens beyond its values (4 on gpt-3.5-turbo-0301), a `name` 1 more, and
 * every reply is primed with 3. Function definitions (num_tokens_for_tools, gpt-4o and
 * gpt-4o-mini): 7 to open a function, 3 to open its properties, 3 per property key, 12 to
 * close it; the keys, types, descriptions and enum values are counted as text.
 *
 * Anthropic, "Tool use pricing and tokens": a request with `tools` also carries a tool-use
 * system prompt whose size depends on the model and `tool_choice` (TOOL_PROMPTS); and the
 * Anthropic-defined tools bill fixed definitions the body does not show: bash 245 tokens,
 * text_editor 700, computer 735 plus the computer-use system prompt (466–499; 499 reserved).
 * Anthropic does not publish a per-message figure; the largest OpenAI one (4) is used for
 * models that are not OpenAI's.
 */
import type { ModelFamily } from './model-family.js';

/** OpenAI's per-message framing (tokens). */
export const OPENAI_PER_MESSAGE = 3;
/** The largest per-message figure published (gpt-3.5-turbo-0301), for every other family (tokens). */
export const OTHER_PER_MESSAGE = 4;
/** `name` on a message (tokens). */
export const PER_NAME = 1;
/** Every reply is primed with `<|start|>assistant<|message|>` (tokens). */
export const REPLY_PRIMING = 3;
/** Opening (7) and closing (12) a function definition, and opening its properties (3) (tokens). */
export const PER_FUNCTION = 7 + 12 + 3;
/** Each property key of a function's schema (tokens). */
export const PER_PROPERTY = 3;

interface ToolPrompt {
  /** The model name (family root) this row is for. */
  pattern: RegExp;
  /** `tool_choice` auto or none (tokens). */
  auto: number;
  /** `tool_choice` any or tool (tokens). */
  any: number;
}

/**
 * Anthropic's tool-use system prompt, per model (rows as published; the Claude 4.5–4.7 rows
 * as the current page lists them). A Claude model no row matches is reserved at the largest.
 */
const TOOL_PROMPTS: readonly ToolPrompt[] = [
  { pattern: /^claude-3-opus/, auto: 530, any: 281 },
  { pattern: /^claude-3-sonnet/, auto: 159, any: 235 },
  { pattern: /^claude-3-haiku/, auto: 264, any: 340 },
  { pattern: /^claude-3-5-haiku/, auto: 264, any: 340 },
  { pattern: /^claude-(?:3-5-sonnet|3-7-sonnet|sonnet-4(?:-[0-9]{8})?$|opus-4(?:-[0-9]{8})?$|opus-4-1)/, auto: 346, any: 313 },
  { pattern: /^claude-(?:sonnet-4-5|haiku-4-5)/, auto: 496, any: 588 },
  { pattern: /^claude-(?:sonnet-4-6|opus-4-6)/, auto: 497, any: 589 },
  { pattern: /^claude-opus-4-7/, auto: 675, any: 804 },
];
const MAX_TOOL_PROMPT = Math.max(...TOOL_PROMPTS.map((row) => Math.max(row.auto, row.any)));
const MIN_TOOL_PROMPT = Math.min(...TOOL_PROMPTS.map((row) => Math.min(row.auto, row.any)));

/** Anthropic-defined tools: the fixed definition each bills (tokens), by its versioned `type`. */
const DEFINED_TOOLS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^bash_\d{8}$/, 245],
  [/^text_editor_\d{8}$/, 700],
  [/^computer_\d{8}$/, 735 + 499],
];
/** A versioned type no row matches (a newer Anthropic-defined tool): the largest published definition. */
const MAX_DEFINED_TOOL = 735 + 499;

/** `tool_choice` reduced to the two columns Anthropic publishes: forced (any, tool, required, a named function) or not. */
export function forcesTool(toolChoice: unknown): boolean | undefined {
  const kind =
    typeof toolChoice === 'string'
      ? toolChoice
      : typeof toolChoice === 'object' && toolChoice !== null
        ? (toolChoice as Record<string, unknown>)['type']
        : undefined;
  if (kind === undefined || kind === null) return false;
  if (kind === 'auto' || kind === 'none') return false;
  if (kind === 'any' || kind === 'tool' || kind === 'required' || kind === 'function' || kind === 'allowed_tools') return true;
  return undefined;
}

/**
 * Anthropic's tool-use system prompt for a request with tools on `model` (0 for OpenAI's
 * families, which publish none). `forced` undefined: a choice we do not know, the larger column.
 */
export function toolPromptTokens(family: ModelFamily, model: string, forced: boolean | undefined): number {
  if (family !== 'claude' && family !== 'unknown') return 0;
  if (family === 'unknown') return MAX_TOOL_PROMPT;
  const name = (model.split('/').pop() ?? '').toLowerCase();
  const row = TOOL_PROMPTS.find((candidate) => candidate.pattern.test(name));
  if (row === undefined) return MAX_TOOL_PROMPT;
  return forced === undefined ? Math.max(row.auto, row.any) : forced ? row.any : row.auto;
}

/** The least tool-use prompt a Claude `model` surely bills: its row's, else the smallest published one (0 for other families). */
export function toolPromptFloor(family: ModelFamily, model: string, forced: boolean | undefined): number {
  if (family !== 'claude') return 0;
  const name = (model.split('/').pop() ?? '').toLowerCase();
  const row = TOOL_PROMPTS.find((candidate) => candidate.pattern.test(name));
  if (row === undefined) return MIN_TOOL_PROMPT;
  return forced === undefined ? Math.min(row.auto, row.any) : forced ? row.any : row.auto;
}

/** The fixed definition of an Anthropic-defined tool `type`, or undefined for a custom tool. */
export function definedToolTokens(type: unknown): number | undefined {
  if (typeof type !== 'string' || type === 'custom' || type === 'function') return undefined;
  for (const [pattern, tokens] of DEFINED_TOOLS) if (pattern.test(type)) return tokens;
  return /_\d{8}$/.test(type) ? MAX_DEFINED_TOOL : undefined;
}

/** Per-message framing for `family` (tokens). */
export function perMessageTokens(family: ModelFamily): number {
  return family === 'claude' || family === 'unknown' ? OTHER_PER_MESSAGE : OPENAI_PER_MESSAGE;
}
