/**
 * Keys in the raw text of a body (strings followed by a colon), counted once per new text, pure
 * but for a bounded memo. The count is compared with the parsed body's keys: more in the text
 * means a duplicate key `JSON.parse` dropped (body-walk.ts).
 *
 * An agent resends its body with a turn added (Claude Code: the same ~65 KB but for a few
 * hundred characters in the middle), so a session's last text is remembered with where some of
 * its string tokens started and how many keys came before it. The next text is compared with
 * it (string equality of slices: memcmp, no hash); the scan resumes at the last string token
 * before the first character that differs, and stops at the first string token it lands on in
 * the unchanged end that the last scan also started a token at: from a token's start on, the
 * scan reads nothing before it, so on equal text it goes as it went, and its keys are the last
 * scan's. Only characters compared equal are ever skipped: a text that differs anywhere is
 * scanned there, whatever a hash of it would say.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;

/** Texts of more characters than this are scanned whole and not remembered. */
const MAX_REMEMBERED_CHARS = 1 << 20;
/** Characters of remembered texts kept at most, over all sessions (oldest dropped first). */
const MEMO_CHARS = 8 * 1024 * 1024;
/** Sessions remembered at most. */
const MEMO_SESSIONS = 256;
/**
 * A string token is remembered as a place to resume or stop at when it starts this many
 * characters after the last one remembered, or is the EVERY-th token since: few entries to
 * copy per body, and little text scanned again before the first change or after the last.
 */
const SPACING = 256;
const EVERY = 16;

interface KeyScan {
  text: string;
  /** Where some of its string tokens start (SPACING, EVERY), in order. */
  starts: Int32Array;
  /** Keys before each of them. */
  keysBefore: Int32Array;
  /** Keys in the whole text. */
  keys: number;
}

const memos = new Map<string, KeyScan>();
let memoChars = 0;

/**
 * Keys in the raw text of a body that parsed; -1 when the text is not JSON. With `memoKey`,
 * the unchanged start and end of the last text counted under it are not scanned again.
 */
export function rawKeyCount(text: string, memoKey?: string): number {
  const remember = memoKey !== undefined && text.length <= MAX_REMEMBERED_CHARS;
  const previous = remember ? memos.get(memoKey) : undefined;
  const starts: number[] = [];
  const keysBefore: number[] = [];
  const keys = previous === undefined ? scan(text, text.indexOf('"'), 0, remember ? starts : undefined, keysBefore, undefined) : rescan(text, previous, starts, keysBefore);
  // `new Int32Array(array)` copies at once; `Int32Array.from` walks the array through its iterator.
  if (remember && keys >= 0) keep(memoKey, { text, starts: new Int32Array(starts), keysBefore: new Int32Array(keysBefore), keys });
  return keys;
}

/** Sessions and characters of text remembered now (tests check the bounds). */
export function rawKeyMemoSize(): { sessions: number; chars: number } {
  return { sessions: memos.size, chars: memoChars };
}

/** Drops every remembered text (tests measure a cold start with it). */
export function forgetRawKeys(): void {
  memos.clear();
  memoChars = 0;
}

/** Where the unchanged end of the last text begins in the new one, and what its tokens were. */
interface Tail {
  /** First character of the common end in the new text. */
  from: number;
  /** Offset of the new text from the old one there (new − old). */
  shift: number;
  last: KeyScan;
  /** The next old token start to match against. */
  next: number;
}

function rescan(text: string, last: KeyScan, starts: number[], keysBefore: number[]): number {
  const prefix = commonPrefix(text, last.text);
  const suffix = commonSuffix(text, last.text, prefix);
  // The scan resumes at the last token that starts inside the common start (its quote included):
  // up to there, the last scan read only characters that are equal.
  const inside = countBelow(last.starts, prefix);
  let at = text.indexOf('"');
  let keys = 0;
  if (inside > 0) {
    for (let i = 0; i < inside - 1; i += 1) {
      starts.push(last.starts[i] as number);
      keysBefore.push(last.keysBefore[i] as number);
    }
    at = last.starts[inside - 1] as number;
    keys = last.keysBefore[inside - 1] as number;
  }
  const from = text.length - suffix;
  const shift = text.length - last.text.length;
  return scan(text, at, keys, starts, keysBefore, { from, shift, last, next: countBelow(last.starts, from - shift) });
}

/**
 * The scan from the string token at `at` with `keys` before it; records each token start (when
 * `starts` is given) and, with `tail`, ends early once it is back in step with the last scan.
 */
function scan(text: string, start: number, before: number, starts: number[] | undefined, keysBefore: number[], tail: Tail | undefined): number {
  let keys = before;
  let tokens = 0;
  let marked = -SPACING;
  for (let at = start; at !== -1; ) {
    if (tail !== undefined && at >= tail.from) {
      const old = at - tail.shift;
      const { starts: oldStarts } = tail.last;
      while (tail.next < oldStarts.length && (oldStarts[tail.next] as number) < old) tail.next += 1;
      if (tail.next < oldStarts.length && oldStarts[tail.next] === old) return adopt(tail, keys, starts, keysBefore);
    }
    if (starts !== undefined && ((tokens += 1) >= EVERY || at - marked >= SPACING)) {
      starts.push(at);
      keysBefore.push(keys);
      tokens = 0;
      marked = at;
    }
    let end = text.indexOf('"', at + 1);
    // A quote after an odd number of backslashes is inside the string.
    while (end !== -1 && oddBackslashesBefore(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) return -1;
    let next = end + 1;
    let code = text.charCodeAt(next);
    while (code === 32 || code === 9 || code === 10 || code === 13) code = text.charCodeAt((next += 1));
    if (code === COLON) keys += 1;
    at = code === QUOTE ? next : text.indexOf('"', next);
  }
  return keys;
}

/** In step with the last scan at its token `tail.next`: the rest of its tokens and keys, moved by the shift. */
function adopt(tail: Tail, keys: number, starts: number[] | undefined, keysBefore: number[]): number {
  const { starts: oldStarts, keysBefore: oldBefore, keys: oldKeys } = tail.last;
  const offset = keys - (oldBefore[tail.next] as number);
  if (starts !== undefined) {
    for (let i = tail.next; i < oldStarts.length; i += 1) {
      starts.push((oldStarts[i] as number) + tail.shift);
      keysBefore.push((oldBefore[i] as number) + offset);
    }
  }
  return oldKeys + offset;
}

function oddBackslashesBefore(text: string, at: number): boolean {
  let count = 0;
  for (let i = at - 1; text.charCodeAt(i) === BACKSLASH; i -= 1) count += 1;
  return (count & 1) === 1;
}

/** How many entries of the ascending `values` are below `limit`. */
function countBelow(values: Int32Array, limit: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Length of the common start of two strings, by equality of halves (memcmp in V8, no hash). */
export function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (hi - lo > 32) {
    const mid = (lo + hi) >>> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid;
  }
  while (lo < hi && a.charCodeAt(lo) === b.charCodeAt(lo)) lo += 1;
  return lo;
}

/** Length of the common end of two strings, not reaching into the first `prefix` characters of either. */
export function commonSuffix(a: string, b: string, prefix: number): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length) - prefix;
  while (hi - lo > 32) {
    const mid = (lo + hi) >>> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid;
  }
  while (lo < hi && a.charCodeAt(a.length - 1 - lo) === b.charCodeAt(b.length - 1 - lo)) lo += 1;
  return lo;
}

function keep(memoKey: string, scanned: KeyScan): void {
  const old = memos.get(memoKey);
  if (old !== undefined) {
    memos.delete(memoKey);
    memoChars -= old.text.length;
  }
  while (memos.size > 0 && (memos.size >= MEMO_SESSIONS || memoChars + scanned.text.length > MEMO_CHARS)) {
    const [oldest, entry] = memos.entries().next().value as [string, KeyScan];
    memos.delete(oldest);
    memoChars -= entry.text.length;
  }
  memos.set(memoKey, scanned);
  memoChars += scanned.text.length;
}
