/**
 * What direction a proposal takes, read from the lines it adds — how the loop decides that a
 * proposal repeats an earlier one, or a negative pattern's direction (issue: "not a repeat of
 * an earlier proposal or of a negative pattern's direction"). Pure.
 *
 * A direction is the set of content words of the added lines: lowercased, split on anything
 * but letters and digits, words of 3+ characters, a plural `s` dropped, stopwords and the
 * front matter (`version:`, `name:`, …) left out — and, at comparison time, every word the
 * incumbent skill already has left out too, so the skill's own vocabulary (`date`, `YYYY`,
 * `month`) never makes two different rules look alike. Two directions A and B are compared
 * by their overlap coefficient |A ∩ B| / min(|A|, |B|): a reworded or shortened repeat keeps
 * most of its words, whichever of the two is longer. When the smaller set has one word, only
 * equal sets match. Thresholds:
 * - a repeat of an earlier proposal: ≥ 0.8, or the very same skill text;
 * - a negative pattern's direction: ≥ 0.6 (stricter, since the article asks that the
 *   generator "not waste iterations in the same direction").
 */

export const REPEAT_OVERLAP = 0.8;
export const NEGATIVE_OVERLAP = 0.6;

const STOPWORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'are', 'was', 'were', 'from', 'each', 'when', 'into', 'then', 'than', 'use', 'any', 'all',
  'not', 'one', 'its', 'only', 'also', 'can', 'may', 'must', 'should', 'will', 'like', 'such', 'these', 'those', 'they', 'them', 'you',
  'your', 'has', 'have', 'had', 'but', 'out', 'per', 'more', 'most', 'other', 'same', 'way', 'e.g', 'etc', 'which', 'what', 'there',
]);
const FRONT_MATTER_LINE = /^\s*(version|name|description|policy|level|changelog)\s*:/i;

/** The lines a unified diff adds (not its `+++` header, not a front matter key line). */
export function addedLines(diff: string): string[] {
  return diff
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .map((line) => line.slice(1))
    .filter((line) => line.trim() !== '' && line.trim() !== '---' && !FRONT_MATTER_LINE.test(line));
}

export function directionWords(lines: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const word of lines.join(' ').toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    words.add(word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  return words;
}

/** The words of `words` the incumbent does not already have: what is new about a direction. */
export function novel(words: ReadonlySet<string>, known: ReadonlySet<string>): Set<string> {
  return new Set([...words].filter((word) => !known.has(word)));
}

/**
 * |A ∩ B| / min(|A|, |B|); 0 when either is empty (a pure deletion has no direction); when the
 * smaller set has a single word, 1 only for equal sets (one shared word is not a direction).
 */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  if (Math.min(a.size, b.size) === 1) return a.size === b.size && shared === 1 ? 1 : 0;
  return shared / Math.min(a.size, b.size);
}
