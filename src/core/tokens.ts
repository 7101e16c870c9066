/**
 * Token counting with a real BPE tokenizer (o200k_base via gpt-tokenizer). The simulator
 * bills with it, and the budget policy estimates prompt overhead with the same rule, so on
 * the simulator the estimate is exact and the budget invariant is provable.
 */
import { encode, decode, countTokens as bpeCount } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from './messages.js';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : bpeCount(text);
}

/** Cuts text to at most `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; tokens: number; truncated: boolean } {
  if (maxTokens <= 0) return { text: '', tokens: 0, truncated: text.length > 0 };
  const ids = encode(text);
  if (ids.length <= maxTokens) return { text, tokens: ids.length, truncated: false };
  return { text: decode(ids.slice(0, maxTokens)), tokens: maxTokens, truncated: true };
}

/**
 * Chat framing overhead, as OpenAI documents it for its chat models: every message costs its
 * content plus 4 tokens, and the reply is primed with 3 more.
 */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_REPLY_PRIMING = 3;

export function countPromptTokens(messages: readonly ChatMessage[]): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const m of messages) total += TOKENS_PER_MESSAGE + countTokens(m.content);
  return total;
}
