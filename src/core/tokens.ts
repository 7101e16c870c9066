/**
 * Token counting with a real BPE tokenizer (OpenAI's o200k_base, see ./bpe/). The simulator
 * bills with it, and the budget policy estimates prompt overhead with the same rule, so on
 * the simulator the estimate is exact and the budget invariant is provable.
 */
import { o200k } from './bpe/o200k.js';
import type { ChatMessage } from './messages.js';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : o200k().count(text);
}

/**
 * Loads the vocabulary and runs each merge path (short pieces, long runs, CJK, digits) on a
 * few KB, so a server's first real request finds the code compiled (~tens of ms, once).
 */
export function warmTokenizer(): void {
  const sample = ['The quick brown fox, 2024-06-01: {"a": [1, 2, 3]}\n', 'x'.repeat(3000), '预算公平的评测比较同样的案例'.repeat(200), '0123456789'.repeat(100)];
  for (let round = 0; round < 3; round += 1) for (const text of sample) countTokens(text);
}

/** Cuts text to at most `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; tokens: number; truncated: boolean } {
  if (maxTokens <= 0) return { text: '', tokens: 0, truncated: text.length > 0 };
  const encoder = o200k();
  const ids = encoder.encode(text);
  if (ids.length <= maxTokens) return { text, tokens: ids.length, truncated: false };
  return { text: encoder.decode(ids.slice(0, maxTokens)), tokens: maxTokens, truncated: true };
}

/**
 * Chat framing overhead, as OpenAI documents it for its chat models: every message costs its
 * content plus 4 tokens, and the reply is primed with 3 more.
 */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_REPLY_PRIMING = 3;

/**
 * Framing of one tool call inside an assistant turn, and of one tool definition. Vendors do
 * not document theirs; these are small fixed costs so that a call or a definition is never
 * free. The simulator bills with the same rule, so budget math on the sim stays exact.
 */
export const TOKENS_PER_TOOL_CALL = 3;
export const TOKENS_PER_TOOL_DEFINITION = 8;

export function countPromptTokens(messages: readonly ChatMessage[]): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const m of messages) total += TOKENS_PER_MESSAGE + countTokens(m.content) + countToolCallTokens(m.toolCalls ?? []);
  return total;
}

/** Tokens of the tool calls an assistant turn makes (name + JSON arguments + framing). */
export function countToolCallTokens(calls: ReadonlyArray<{ name: string; arguments: string }>): number {
  let total = 0;
  for (const call of calls) total += TOKENS_PER_TOOL_CALL + countTokens(call.name) + countTokens(call.arguments);
  return total;
}

/** Prompt tokens the offered tools cost (name, description, JSON Schema, framing). */
export function countToolDefinitionTokens(tools: ReadonlyArray<{ name: string; description: string; parameters: unknown }>): number {
  let total = 0;
  for (const tool of tools) total += TOKENS_PER_TOOL_DEFINITION + countTokens(tool.name) + countTokens(tool.description) + countTokens(JSON.stringify(tool.parameters));
  return total;
}
