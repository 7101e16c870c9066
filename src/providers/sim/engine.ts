/**
 * The simulator's engine: a pure function from (request, seed) to choices, usage and a
 * latency. Billing uses the same tokenizer and framing rule as the budget policy
 * (`countPromptTokens`, `countTokens`), so budget arithmetic on the sim is exact.
 *
 * Randomness is keyed on the item, not on the skill: every draw hashes the seed, the
 * request seed and the non-system messages (the task), never the system prompt or the
 * model name. Two skills or two models are thus compared under common random numbers —
 * a paired comparison shows only what the skill or the model changed.
 */
import type { ChatMessage, ToolCall } from '../../core/messages.js';
import { finishReason, type FinishReason } from '../../core/finish-reason.js';
import { countTokens, countToolCallTokens, countToolDefinitionTokens, truncateToTokens } from '../../core/tokens.js';
import type { ToolDefinition } from '../spec.js';
import { makeUsage, type Usage } from '../../core/usage.js';
import { foreignPromptTokens, type SimBilling } from './foreign-tokenizer.js';
import { getProfile } from './profiles.js';
import { promptTokens } from './prompt-tokens.js';
import { hashParts, uniformFrom } from './random.js';
import { readStyleRules } from './style-rules.js';
import { solveTask } from './tasks/index.js';

export interface SimRequest {
  model: string;
  messages: readonly ChatMessage[];
  /** Completion cap per choice (tokens). */
  maxTokens: number;
  temperature: number;
  /** Choices in this one call (native n). */
  n: number;
  /** Request seed (OpenAI `seed`); part of the item key when given. */
  seed?: number;
  /** Tools offered; a task that needs one answers with tool calls. Billed as prompt. */
  tools?: readonly ToolDefinition[];
  /**
   * Path index of the first choice (default 0). A caller making n separate calls for one
   * arm can pass 0..n−1 so parallel paths behave like native ones.
   */
  firstPath?: number;
}

export interface SimOptions {
  /** The simulator's own seed (`sim serve --seed`, the experiment seed). */
  seed: number;
  /** How prompts are billed: o200k (default, so budget math on the sim is exact) or a foreign tokenizer. */
  billing?: SimBilling;
}

/** Prompt tokens of a request as the simulator bills them. */
export function billedPromptTokens(messages: readonly ChatMessage[], tools: readonly ToolDefinition[], billing: SimBilling = 'o200k'): number {
  return billing === 'foreign-tokenizer' ? foreignPromptTokens(messages, tools) : promptTokens(messages) + countToolDefinitionTokens(tools);
}

export interface SimChoice {
  text: string;
  finishReason: FinishReason;
  /** Completion tokens billed for this choice. */
  tokens: number;
  /** Tool calls of this choice (finish `tool_calls`); ids are unique within the conversation. */
  toolCalls?: ToolCall[];
}

export interface SimResult {
  choices: SimChoice[];
  /** One usage for the whole call: the prompt is billed once however many choices. */
  usage: Usage;
  /** How long the call would take (ms); the provider and server wait it, scaled. */
  latencyMs: number;
  /** Which task the sim recognized (`date`, `digit-search`, …, `fallback`). */
  task: string;
}

/**
 * Probability that path i > 0 draws on its own instead of repeating the shared draw:
 * low temperatures repeat themselves, a skill that says "diversify" does not.
 */
export function pathIndependence(temperature: number, diversify: boolean): number {
  if (diversify) return 1;
  return Math.min(1, Math.max(0, (temperature - 0.3) / 0.7));
}

export function simulate(request: SimRequest, options: SimOptions): SimResult {
  if (!Number.isInteger(request.n) || request.n < 1) throw new RangeError(`n must be a positive integer, got ${request.n}`);
  if (!Number.isFinite(request.maxTokens) || request.maxTokens < 0) throw new RangeError(`maxTokens must be ≥ 0, got ${request.maxTokens}`);

  const profile = getProfile(request.model);
  const skill = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  const userText = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const style = readStyleRules(skill);
  const item = hashParts(options.seed, request.seed ?? 'no-seed', ...itemMessages(request.messages).map((m) => `${m.role}:${m.content}`));
  const conversation = request.messages.filter((m) => m.role !== 'system');
  const tools = request.tools ?? [];
  const independence = pathIndependence(request.temperature, style.diversify);

  // Paths that share a key give the same text: solve each key once.
  const solved = new Map<string, ReturnType<typeof solveTask>>();
  const firstPath = request.firstPath ?? 0;
  const choices: SimChoice[] = [];
  let task = 'fallback';
  for (let i = 0; i < request.n; i += 1) {
    const path = firstPath + i;
    // Path 0 always uses the shared draw, so pass@1 never depends on the diversity rule.
    const key = path === 0 || uniformFrom(item, 'independent', path) >= independence ? 'shared' : `path-${path}`;
    let answer = solved.get(key);
    if (!answer) {
      answer = solveTask({ model: request.model, profile, skill, userText, style, conversation, tools, draw: (label) => uniformFrom(item, key, label) });
      solved.set(key, answer);
    }
    task = answer.task;
    const calls = answer.toolCalls ?? [];
    if (calls.length > 0) {
      choices.push(toolCallChoice(answer.text, calls, Math.floor(request.maxTokens), (index) => `call_${hashParts(item, key, conversation.length, index).toString(36)}`));
      continue;
    }
    const cut = truncateToTokens(answer.text, Math.floor(request.maxTokens));
    choices.push({ text: cut.text, tokens: cut.tokens, finishReason: cut.truncated ? finishReason('length', 'length') : finishReason('stop', 'stop') });
  }

  const inputTokens = billedPromptTokens(request.messages, tools, options.billing);
  const outputTokens = choices.reduce((sum, c) => sum + c.tokens, 0);
  const longest = choices.reduce((max, c) => Math.max(max, c.tokens), 0);
  // Choices decode in parallel: the call lasts as long as its longest choice.
  const jitter = 1 + profile.latency.jitter * (2 * uniformFrom(item, 'latency', firstPath, request.n) - 1);
  const latencyMs = Math.max(0, Math.round((profile.latency.baseMs + profile.latency.perOutputTokenMs * longest) * jitter));
  return {
    choices,
    usage: makeUsage({ inputTokens, outputTokens, cachedTokens: 0, reasoningTokens: 0 }),
    latencyMs,
    task,
  };
}

/**
 * The messages that define the item: everything before the first tool traffic. A tool loop is
 * one item, so every turn draws from the same luck whatever lookups a skill made before it —
 * baseline and candidate stay paired. Without tool traffic this is every non-system message.
 */
function itemMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const nonSystem = messages.filter((m) => m.role !== 'system');
  const firstTool = nonSystem.findIndex((m) => m.role === 'tool' || (m.toolCalls?.length ?? 0) > 0);
  return firstTool < 0 ? nonSystem : nonSystem.slice(0, firstTool);
}

/**
 * A reply that calls tools. Calls that do not fit in max_tokens are lost: the model wrote up
 * to the cap (billed in full) and what is left is its cut text, finish `length`.
 */
function toolCallChoice(text: string, calls: ReadonlyArray<Omit<ToolCall, 'id'>>, maxTokens: number, idFor: (index: number) => string): SimChoice {
  const tokens = countTokens(text) + countToolCallTokens(calls);
  if (tokens <= maxTokens) {
    return { text, tokens, toolCalls: calls.map((call, index) => ({ id: idFor(index), ...call })), finishReason: finishReason('tool_calls', 'tool_calls') };
  }
  return { text: truncateToTokens(text, maxTokens).text, tokens: Math.max(0, maxTokens), finishReason: finishReason('length', 'length') };
}
