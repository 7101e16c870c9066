/**
 * Escaping for the HTML report. Every string that did not come from this module's own
 * templates — model outputs, case inputs, category names, ids, reasons — goes through one of
 * these before it reaches the page.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for element content and for double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<` is written as `\u003c`, so
 * no `</script>` or `<!--` in the data can end the element or open a comment; U+2028/U+2029 are
 * escaped so old parsers reading it as JS cannot break either. JSON.parse gives back the same
 * value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
