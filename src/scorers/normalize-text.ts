/**
 * The normalization shared by the `normalized` scorer and the `majority` selector, so that
 * "two outputs agree" means the same thing in both places.
 *
 * Steps: Unicode NFKC (full-width digits and letters, common in CJK output, become ASCII),
 * lowercase, trim, collapse whitespace runs to one space, then repeatedly strip one trailing
 * period (`.` or `。`) and one pair of surrounding quotes or backticks until nothing changes
 * (so `"Paris".` and `` `Paris` `` both become `paris`). Numbers are not parsed: `3.0` and `3`
 * stay different — use the numeric scorer for numeric answers.
 */

const QUOTE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
  ['\u00ab', '\u00bb'],
  ['\u300c', '\u300d'],
  ['\u300e', '\u300f'],
];

export function normalizeText(text: string): string {
  let current = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  for (;;) {
    const next = stripOnce(current);
    if (next === current) return current;
    current = next;
  }
}

function stripOnce(text: string): string {
  if (text.endsWith('.') || text.endsWith('\u3002')) return text.slice(0, -1).trim();
  // Triple backticks first, so a one-line ```x``` loses the whole fence, not one tick.
  if (text.length >= 6 && text.startsWith('```') && text.endsWith('```')) return text.slice(3, -3).trim();
  for (const [open, close] of QUOTE_PAIRS) {
    if (text.length >= open.length + close.length && text.startsWith(open) && text.endsWith(close)) {
      return text.slice(open.length, text.length - close.length).trim();
    }
  }
  return text;
}

/** The last line of `text` that is not blank, or undefined when every line is blank. */
export function lastNonEmptyLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i];
    if (line !== undefined && line.trim() !== '') return line;
  }
  return undefined;
}
