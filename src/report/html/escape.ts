/**
 * Escaping for the HTML report. Every string that did not come from the report's own
 * templates — case inputs, category names, ids, reasons — goes through it before it reaches
 * the page. (Model outputs travel as base64 data and become text nodes in the browser.)
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for element content and for double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
