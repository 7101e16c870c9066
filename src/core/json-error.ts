/**
 * JSON.parse's error text, made safe to show. V8 quotes the start of the input it could not
 * parse (`Unexpected token 'r', "root:x:0:0:"... is not valid JSON`): fine for a JSONL file
 * with one broken line, a leak when the "dataset" is `../../etc/passwd`. Callers quote only
 * from a file that otherwise parsed as what it should be (some line was a JSON object).
 * Unquoted, not even the one character of `Unexpected token 'r'` is kept: over the lines of
 * `/etc/passwd` (or a file of keys) those spell out the first letter of every line.
 */

/** The parser's message; with `quote: false`, without the quoted input. */
export function jsonErrorText(error: unknown, quote: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  if (quote) return message;
  return message
    .replace(/, ".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/^Unexpected token .*?( in JSON at position \d+.*)?$/s, (_, tail: string | undefined) => `Unexpected character${tail ?? ''}`);
}

/** The 1-based column V8 names (`… at position 12`), when it names one. */
export function jsonErrorColumn(error: unknown): number | undefined {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : String(error))?.[1];
  return position === undefined ? undefined : Number(position) + 1;
}
