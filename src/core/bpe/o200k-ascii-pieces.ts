/**
 * The o200k split pattern (O200K_SPLIT in o200k.ts) decided by hand where only ASCII is in play.
 * On code and JSON the Unicode-class regex is most of what counting costs; this walks the same
 * seven alternatives with a 128-entry class table and answers UNKNOWN (the caller then runs the
 * regex) whenever a character the regex would look at is non-ASCII: it might be a letter, a
 * digit, a mark or a space (U+00A0, U+2028), and then the piece could end anywhere.
 *
 * In ASCII the classes are: letters A–Z (Lu, the pattern's "upper" class) and a–z (Ll, "lower";
 * no ASCII character is Lt, Lm, Lo or M, the ones in both), digits 0–9 (N), whitespace
 * \t \n \v \f \r and space (\s), and everything else, controls included ("other": not \s, L, N).
 * The alternatives, tried in order, each greedy:
 *   1. P? U* W+ C?    P = [^\r\n L N], an optional lead; U* W+ needs a lowercase after the uppercase run
 *   2. P? U+ W* C?    (reached when 1 fails: W* is then empty)
 *   3. N{1,3}
 *   4. ' '? O+ [\r\n/]*
 *   5. \s* [\r\n]+    → ends after the run's last \r or \n
 *   6. \s+ (?!\S)     → the run less its last character when a non-space follows
 *   7. \s+            → a single whitespace character before a non-space
 * C is a contraction: 's 't 're 've 'm 'll 'd, each letter in either case and only in ASCII.
 * src/core/bpe/o200k-ascii-pieces.test.ts compares it with the regex at every position of fuzzed text.
 */

/** Returned when the piece might depend on a non-ASCII character: run the regex. */
export const UNKNOWN = -1;

const END = 0;
const NON_ASCII = 1;
const UPPER = 2;
const LOWER = 3;
const DIGIT = 4;
/** \r and \n: whitespace that is not in P. */
const NEWLINE = 5;
/** \t \v \f and space. */
const BLANK = 6;
const OTHER = 7;

const SPACE = 0x20;
const APOSTROPHE = 0x27;
const SLASH = 0x2f;
const CR = 0x0d;
const LF = 0x0a;

const KINDS = buildKinds();

function buildKinds(): Uint8Array {
  const kinds = new Uint8Array(128).fill(OTHER);
  for (let code = 0x41; code <= 0x5a; code += 1) kinds[code] = UPPER;
  for (let code = 0x61; code <= 0x7a; code += 1) kinds[code] = LOWER;
  for (let code = 0x30; code <= 0x39; code += 1) kinds[code] = DIGIT;
  kinds[CR] = NEWLINE;
  kinds[LF] = NEWLINE;
  for (const code of [0x09, 0x0b, 0x0c, SPACE]) kinds[code] = BLANK;
  return kinds;
}

/** Class of text[i]: END past the end, NON_ASCII from 0x80 up. */
function kindAt(text: string, i: number): number {
  // The bound is checked first: charCodeAt past the end is NaN, which would make the code a double.
  if (i >= text.length) return END;
  const code = text.charCodeAt(i);
  return code < 0x80 ? (KINDS[code] as number) : NON_ASCII;
}

/** End (exclusive) of the o200k piece that starts at `at`, as the sticky regex would give it, or UNKNOWN. */
export function o200kAsciiPieceEnd(text: string, at: number): number {
  const kind = kindAt(text, at);
  if (kind === UPPER || kind === LOWER) return letters(text, at);
  if (kind === DIGIT) return digits(text, at);
  if (kind === BLANK || kind === OTHER) {
    // The character can be alternative 1's or 2's lead: letters after it join the piece.
    const next = kindAt(text, at + 1);
    if (next === UPPER || next === LOWER) return letters(text, at + 1);
    if (next === NON_ASCII) return UNKNOWN;
    if (kind === OTHER) return punctuation(text, at);
    if (text.charCodeAt(at) === SPACE && next === OTHER) return punctuation(text, at + 1);
  }
  if (kind === BLANK || kind === NEWLINE) return whitespace(text, at);
  return UNKNOWN;
}

// The scans below read char codes in place (no kindAt call per character): on prose, where the
// regex is quick, a call per character made the fast path slower than the regex.

/** Alternatives 1 and 2 from a letter at `start`: the uppercase run, then the lowercase run, then a contraction. */
function letters(text: string, start: number): number {
  const length = text.length;
  let at = start;
  let code = 0;
  while (at < length && isUpper((code = text.charCodeAt(at)))) at += 1;
  if (at === length) return at;
  if (code >= 0x80) return UNKNOWN;
  // Alternative 1 fails without a lowercase letter here; alternative 2 then ends the letters at the uppercase run.
  if (!isLower(code)) return contraction(text, at);
  while (at < length && isLower((code = text.charCodeAt(at)))) at += 1;
  if (at === length) return at;
  if (code >= 0x80) return UNKNOWN;
  return contraction(text, at);
}

function isUpper(code: number): boolean {
  return (code - 0x41) >>> 0 < 26;
}

function isLower(code: number): boolean {
  return (code - 0x61) >>> 0 < 26;
}

/** `at` plus the length of the contraction starting there, if any. */
function contraction(text: string, at: number): number {
  if (at + 1 >= text.length || text.charCodeAt(at) !== APOSTROPHE) return at;
  // `| 0x20` folds ASCII case; only 'S' and 's' fold to 's', and so on, so nothing else matches.
  const first = text.charCodeAt(at + 1) | 0x20;
  if (first === 0x73 || first === 0x74 || first === 0x6d || first === 0x64) return at + 2; // s t m d
  if (at + 2 >= text.length) return at;
  const second = text.charCodeAt(at + 2) | 0x20;
  if ((first === 0x72 || first === 0x76) && second === 0x65) return at + 3; // re ve
  if (first === 0x6c && second === 0x6c) return at + 3; // ll
  return at;
}

/** Alternative 3: up to three digits; a non-ASCII character after fewer might be a digit too. */
function digits(text: string, start: number): number {
  const stop = Math.min(start + 3, text.length);
  let at = start + 1;
  let code = 0;
  while (at < stop && isDigit((code = text.charCodeAt(at)))) at += 1;
  if (at < stop && code >= 0x80) return UNKNOWN;
  return at;
}

function isDigit(code: number): boolean {
  return (code - 0x30) >>> 0 < 10;
}

/** Alternative 4 from the first "other" character at `start`: its run, then any \r, \n and /. */
function punctuation(text: string, start: number): number {
  const length = text.length;
  let at = start;
  let code = 0;
  while (at < length && (code = text.charCodeAt(at)) < 0x80 && KINDS[code] === OTHER) at += 1;
  if (at === length) return at;
  if (code >= 0x80) return UNKNOWN;
  while (at < length && ((code = text.charCodeAt(at)) === CR || code === LF || code === SLASH)) at += 1;
  return at;
}

/** Alternatives 5 to 7 over the whitespace run at `start`. */
function whitespace(text: string, start: number): number {
  const length = text.length;
  let at = start;
  let code = 0;
  let newline = -1;
  for (; at < length && (code = text.charCodeAt(at)) < 0x80; at += 1) {
    const kind = KINDS[code];
    if (kind === NEWLINE) newline = at;
    else if (kind !== BLANK) break;
  }
  // A non-ASCII character might be whitespace and extend the run.
  if (at < length && code >= 0x80) return UNKNOWN;
  if (newline >= 0) return newline + 1;
  // `\s+(?!\S)` gives the last character back to a non-space after the run; a run of one is `\s+`'s.
  return at === length || at - start === 1 ? at : at - 1;
}
