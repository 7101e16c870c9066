/**
 * Finds numbers in free text the way a reader would: `1,234.5`, `-3`, `1e-3`, `.5`, `−2`
 * (Unicode minus). A minus directly after a letter or digit is a hyphen, not a sign, so
 * `2020-01-05` ends in 5 and `x-3` in 3; `answer: -3` and `= -3` keep the sign. A sentence's
 * final period is not a decimal point (`is 42.` → 42).
 */

const NUMBER = /(?:(?<![\w.,])[-+\u2212])?(?<![\d.])(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?/g;

/** Every number in `text`, in order of appearance. */
export function extractNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const value = parseNumber(match[0]);
    if (value !== undefined) numbers.push(value);
  }
  return numbers;
}

/** The last number in `text` — where models put the final answer after their working. */
export function extractLastNumber(text: string): number | undefined {
  return extractNumbers(text).at(-1);
}

/**
 * Parses one number written as text (`1,234.5`, `−2`, ` 1e-3 `); undefined when `text` is
 * not exactly one finite number.
 */
export function parseNumber(text: string): number | undefined {
  const cleaned = text.trim().replace(/\u2212/g, '-').replace(/,/g, '');
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(cleaned)) return undefined;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}
