/**
 * What a request's prompt may cost, before it goes out. The gateway cannot see the
 * upstream's tokenizer, so it counts the whole JSON body (message text, tool schemas and
 * JSON punctuation — a superset of what is billed) with the o200k tokenizer and adds the
 * runner's margin for foreign tokenizers. The budget reservation rests on this number.
 *
 * Tokenizing is CPU work (≈4 ms for a 14 KB Claude Code body), so large bodies are counted
 * in slices with a yield between them: a 1 MB session must not stall every other stream.
 */
import { countTokens } from '../core/tokens.js';
import { promptEstimate } from '../runner/budget.js';

/** Bodies up to this many characters are counted in one go. */
const SLICE_CHARS = 32 * 1024;

export function estimatePromptTokens(text: string, exact = false): number | Promise<number> {
  // The common case, a body of one slice, is answered at once: no promise, no tick.
  if (text.length <= SLICE_CHARS) return promptEstimate(countTokens(text), exact);
  return countInSlices(text, exact);
}

async function countInSlices(text: string, exact: boolean): Promise<number> {
  let total = 0;
  for (let start = 0; start < text.length; ) {
    const end = sliceEnd(text, start);
    // A slice boundary can split one token into two; the +1 keeps the sum an over-estimate.
    total += countTokens(text.slice(start, end)) + (end < text.length ? 1 : 0);
    start = end;
    if (start < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return promptEstimate(total, exact);
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
