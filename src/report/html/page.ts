/**
 * The HTML document around a report, pure. A Content-Security-Policy allows no network at all
 * and only the page's own inline script (by hash): even if some text ever escaped escaping,
 * an injected `<script>` or `onerror=` would not run.
 */
import { createHash } from 'node:crypto';
import { escapeHtml as h } from './escape.js';

export interface PageOptions {
  title: string;
  css: string;
  body: string;
  /** The page's one inline script, if any. */
  script?: string;
}

export function renderPage(options: PageOptions): string {
  const scriptSrc = options.script === undefined ? "'none'" : `'sha256-${createHash('sha256').update(options.script, 'utf8').digest('base64')}'`;
  const csp = `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${scriptSrc}; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${h(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${h(options.title)}</title>
<style>${options.css}</style>
</head>
<body>
<main>
${options.body}
</main>
${options.script === undefined ? '' : `<script>${options.script}</script>`}
</body>
</html>
`;
}
