/**
 * Finds the JSON object or array a model meant as its answer. Order: the whole output; then
 * the first ``` fenced block (```json or bare) that parses; then the first balanced `{…}` or
 * `[…]` in the text that parses (so "[note] {…}" skips the non-JSON bracket).
 */

export type JsonExtraction = { found: true; value: unknown; source: 'whole' | 'fence' | 'embedded' } | { found: false };

const FENCE = /```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)```/g;

export function extractJson(text: string): JsonExtraction {
  const whole = parseContainer(text.trim());
  if (whole.ok) return { found: true, value: whole.value, source: 'whole' };
  for (const match of text.matchAll(FENCE)) {
    const body = parseContainer((match[2] ?? '').trim());
    if (body.ok) return { found: true, value: body.value, source: 'fence' };
  }
  for (let start = 0; start < text.length; start += 1) {
    const char = text[start];
    if (char !== '{' && char !== '[') continue;
    const end = balancedEnd(text, start);
    if (end === undefined) continue;
    const candidate = parseContainer(text.slice(start, end + 1));
    if (candidate.ok) return { found: true, value: candidate.value, source: 'embedded' };
  }
  return { found: false };
}

/** Parses text that must be a JSON object or array (not a bare string or number). */
function parseContainer(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!(text.startsWith('{') || text.startsWith('['))) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings. */
function balancedEnd(text: string, start: number): number | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return undefined;
      if (stack.length === 0) return i;
    }
  }
  return undefined;
}
