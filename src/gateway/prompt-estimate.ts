/**
 * What a request's prompt may cost, before it goes out. The gateway cannot see the
 * upstream's tokenizer, so it counts the whole JSON body (message text, tool schemas and
 * JSON punctuation — a superset of what is billed) with the o200k tokenizer and adds the
 * runner's margin for foreign tokenizers. The budget reservation rests on this number.
 *
 * Tokenizing is CPU work (≈4 ms for a 14 KB Claude Code body). Agents resend the same
 * system prompt, tool schemas and history on every turn, so long strings are counted once
 * and remembered; a body is then its JSON skeleton (long strings blanked) plus the counts of
 * its long strings — splitting text only loses merges, so the parts never count less. Text
 * not seen before is counted in slices with a yield between them: a 1 MB tool result must
 * not stall every other stream.
 */
import { countTokens } from '../core/tokens.js';
import { promptEstimate } from '../budget/path-budget.js';

/** Text up to this many characters is counted in one go. */
const SLICE_CHARS = 32 * 1024;
/** Strings this long are counted separately and remembered. */
const LONG_STRING = 1024;
/** Characters of remembered strings kept at most (oldest dropped first). */
const CACHE_CHARS = 32 * 1024 * 1024;

const remembered = new Map<string, number>();
let rememberedChars = 0;

/** Prompt tokens of a parsed request body (with margin unless `exact`); `raw` is its JSON text. */
export function estimateBodyTokens(body: unknown, raw: string, exact = false): number | Promise<number> {
  if (raw.length <= 4 * LONG_STRING) return promptEstimate(countTokens(raw), exact);
  const long: string[] = [];
  const skeleton = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_STRING) return value;
    long.push(value);
    return '';
  });
  const known = long.map((text) => cached(text));
  if (skeleton.length <= SLICE_CHARS && known.every((count) => count !== undefined)) {
    return promptEstimate(countTokens(skeleton) + sum(known as number[]), exact);
  }
  return (async () => {
    let total = await countText(skeleton);
    for (const [i, text] of long.entries()) total += known[i] ?? remember(text, await countText(text));
    return promptEstimate(total, exact);
  })();
}

/** Prompt tokens of any text (with margin unless `exact`). */
export function estimatePromptTokens(text: string, exact = false): number | Promise<number> {
  if (text.length <= SLICE_CHARS) return promptEstimate(countTokens(text), exact);
  return countText(text).then((count) => promptEstimate(count, exact));
}

function cached(text: string): number | undefined {
  const count = remembered.get(text);
  if (count !== undefined) {
    // Most recently used last, so eviction drops what no session has sent for longest.
    remembered.delete(text);
    remembered.set(text, count);
  }
  return count;
}

function remember(text: string, count: number): number {
  remembered.set(text, count);
  rememberedChars += text.length;
  for (const oldest of remembered.keys()) {
    if (rememberedChars <= CACHE_CHARS) break;
    remembered.delete(oldest);
    rememberedChars -= oldest.length;
  }
  return count;
}

async function countText(text: string): Promise<number> {
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start);
    // A slice boundary can split one token into two; the +1 keeps the sum an over-estimate.
    total += countTokens(text.slice(start, end)) + (end < text.length ? 1 : 0);
    start = end;
    if (start < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Cut after a space or comma near the slice size, so few tokens straddle a boundary. */
function sliceEnd(text: string, start: number): number {
  const hard = Math.min(text.length, start + SLICE_CHARS);
  if (hard === text.length) return hard;
  for (let i = hard; i > hard - 256; i -= 1) {
    const c = text.charCodeAt(i - 1);
    if (c === 32 || c === 44) return i;
  }
  return hard;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
