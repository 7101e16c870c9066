/**
 * `countPromptTokens`, memoized on the exact messages. BPE on a few-hundred-token skill is
 * the engine's main cost, and the same prompt comes back constantly (Best-of-N in parallel
 * mode, retries, benchmarks); the memo keeps the count exactly what the budget policy uses.
 */
import type { ChatMessage } from '../../core/messages.js';
import { countPromptTokens } from '../../core/tokens.js';

const CACHE_LIMIT = 2048;
const cache = new Map<string, number>();

export function promptTokens(messages: readonly ChatMessage[]): number {
  // Tool calls are billed too, so they are part of the key.
  const key = messages.map((m) => `${m.role}\u0000${m.content}${m.toolCalls ? `\u0000${JSON.stringify(m.toolCalls)}` : ''}`).join('\u0001');
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const count = countPromptTokens(messages);
  // Oldest-first eviction: Map iterates in insertion order.
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value ?? key);
  cache.set(key, count);
  return count;
}
