/**
 * The one sanitizer for text from data, models and upstreams before it reaches a terminal.
 *
 * A dataset row, a model output or an upstream's error body can carry terminal controls:
 * ESC sequences (CSI cursor moves and screen clears, OSC 52 clipboard writes, OSC 8 links),
 * their 8-bit C1 forms (U+009B is CSI on its own), backspaces and carriage returns that
 * overwrite what came before, and bidi overrides that reorder a line. Any of them can hide
 * lines from a reviewer. Every such character is replaced by its visible `\uXXXX` escape, so
 * the reader sees that something was there, and nothing is interpreted.
 *
 * The escape is JSON's own: inside a JSON string `\u001b` means ESC, so `--json` output that
 * passes through here stays valid JSON and means the same (JSON.stringify never writes these
 * characters outside strings). Newline and tab are kept; `\r\n` becomes `\n`.
 */

/**
 * C0 controls except tab (U+0009) and newline (U+000A), DEL, C1 controls, the bidi
 * embeddings/overrides/isolates (U+202A–U+202E, U+2066–U+2069) and the line/paragraph
 * separators some terminals treat as line breaks.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every terminal control made visible (`\u001b[2J`), newlines and tabs kept. */
export function terminalSafe(text: string): string {
  if (!UNSAFE_TEST.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, escapeCharacter);
}

/** Whether `text` would reach a terminal unchanged. */
export function isTerminalSafe(text: string): boolean {
  return !UNSAFE_TEST.test(text);
}
