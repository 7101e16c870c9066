/**
 * The `foreign-tokenizer` billing profile of `sim serve --profile foreign-tokenizer`: prompts
 * are billed by a tokenizer that is not o200k, as Claude, Qwen or DeepSeek models behind an
 * OpenAI-compatible URL bill theirs. Estimators that assume o200k (× a fixed margin) break on
 * it; the shared estimator must learn the ratio, or ask count_tokens (which answers with this
 * count too).
 *
 * The foreign vocabulary is o200k's with part of its tokens missing: a token missing from it
 * costs two foreign tokens. Which tokens are missing is fixed by a hash of the id, so the same
 * text always bills the same. More are missing among CJK tokens (50 %) and code-like tokens —
 * digits, punctuation, whitespace — (55 %) than among tokens of other letters (40 %): about
 * 1.4× o200k on English prose and 1.5× on CJK text and code, as foreign tokenizers go.
 * Framing is a little heavier too: 5 tokens a message instead of 4.
 */
import type { ChatMessage } from '../../core/messages.js';
import { o200k } from '../../core/bpe/o200k.js';
import { TOKENS_PER_TOOL_CALL, TOKENS_PER_TOOL_DEFINITION, TOKENS_REPLY_PRIMING } from '../../core/tokens.js';

export type SimBilling = 'o200k' | 'foreign-tokenizer';
export const SIM_BILLINGS: readonly SimBilling[] = ['o200k', 'foreign-tokenizer'];

const FOREIGN_TOKENS_PER_MESSAGE = 5;
/** Percent of tokens missing from the foreign vocabulary, by kind. */
const MISSING_PERCENT = { letters: 40, cjk: 50, code: 55 } as const;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
const LETTER = /\p{L}/u;

/** Foreign cost per o200k id (0: not computed yet). */
let costs: Uint8Array | undefined;

function tokenCost(id: number): number {
  costs ??= new Uint8Array(1 << 18);
  const known = costs[id] ?? 0;
  if (known !== 0) return known;
  const text = o200k().decode([id]);
  const kind = CJK.test(text) ? 'cjk' : LETTER.test(text) ? 'letters' : 'code';
  // A byte that is only part of a character decodes to '': CJK above all is split that way.
  const percent = text === '' ? MISSING_PERCENT.cjk : MISSING_PERCENT[kind];
  const cost = mix(id) % 100 < percent ? 2 : 1;
  costs[id] = cost;
  return cost;
}

/** Foreign tokens of a text. */
export function foreignTokens(text: string): number {
  if (text.length === 0) return 0;
  let total = 0;
  for (const id of o200k().encode(text)) total += tokenCost(id);
  return total;
}

/** A prompt as the foreign-tokenizer profile bills it: messages, their tool calls, tool definitions. */
export function foreignPromptTokens(messages: readonly ChatMessage[], tools: ReadonlyArray<{ name: string; description: string; parameters: unknown }>): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const message of messages) {
    total += FOREIGN_TOKENS_PER_MESSAGE + foreignTokens(message.content);
    for (const call of message.toolCalls ?? []) total += TOKENS_PER_TOOL_CALL + foreignTokens(call.name) + foreignTokens(call.arguments);
  }
  for (const tool of tools) total += TOKENS_PER_TOOL_DEFINITION + foreignTokens(tool.name) + foreignTokens(tool.description) + foreignTokens(JSON.stringify(tool.parameters));
  return total;
}

/** A fixed integer hash (murmur3's finalizer). */
function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
