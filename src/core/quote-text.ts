/**
 * Text from models, agents or upstreams quoted in an error or a verdict: the first
 * `maxChars` characters as a JSON string literal — quotes, backslashes and C0 controls (ESC
 * included) escaped by JSON.stringify, DEL and C1 controls escaped here — so the quoted text
 * stays on one line and cannot drive the terminal that shows it.
 */
export function quoteText(text: string, maxChars: number): string {
  // Code points, not UTF-16 units, so a cut never splits a character; only the head is spread.
  const head = [...text.slice(0, maxChars * 2)].slice(0, maxChars).join('');
  const quoted = JSON.stringify(head).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return head.length < text.length ? `${quoted}…` : quoted;
}
