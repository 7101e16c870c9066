/**
 * The viewer's page shell, pure: navigation, the report's stylesheet plus the viewer's, and
 * one inline script allowed by its hash. The Content-Security-Policy allows no third-party
 * request at all: the live page may talk to its own server only; a bundle page to nothing.
 */
import { createHash } from 'node:crypto';
import { escapeHtml as h } from '../report/html/escape.js';
import { REPORT_CSS } from '../report/html/styles.js';
import type { Links } from './links.js';
import { VIEW_CSS } from './view-css.js';
import { VIEW_SCRIPT } from './view-script.js';

export type Screen = 'runs' | 'run' | 'compare' | 'review' | 'memory' | 'evolve' | 'spend';

export interface PageInput {
  title: string;
  screen: Screen;
  body: string;
  links: Links;
  /** The review token (live server only): lets this page post review decisions. */
  token?: string | undefined;
}

const SCRIPT_HASH = `'sha256-${createHash('sha256').update(VIEW_SCRIPT, 'utf8').digest('base64')}'`;

/** `header`: the HTTP header's form, which may also forbid framing (a <meta> policy cannot). */
export function contentSecurityPolicy(mode: Links['mode'], header = false): string {
  const connect = mode === 'live' ? "'self'" : "'none'";
  const forms = mode === 'live' ? "'self'" : "'none'";
  return `default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src ${SCRIPT_HASH}; connect-src ${connect}; form-action ${forms}; base-uri 'none'${header ? "; frame-ancestors 'none'" : ''}`;
}

export function renderViewPage(input: PageInput): string {
  const { links } = input;
  const compare = links.compare();
  const nav: Array<[Screen, string, string | undefined]> = [
    ['runs', 'Runs', links.runs()],
    ['compare', 'Compare', compare],
    ['review', 'Review', links.review()],
    ['memory', 'Memory', links.memory()],
    ['evolve', 'Evolve', links.evolve()],
    ['spend', 'Spend', links.spend()],
  ];
  const items = nav
    .filter(([, , href]) => href !== undefined)
    .map(([screen, label, href]) => `<a href="${h(href)}"${screen === input.screen ? ' aria-current="page"' : ''}>${h(label)}</a>`)
    .join('');
  const mode = links.mode === 'bundle' ? '<span class="mode">static bundle · read-only</span>' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${h(contentSecurityPolicy(links.mode))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${input.token === undefined ? '' : `<meta name="isobudget-token" content="${h(input.token)}">`}
<title>${h(input.title)} · isobudget view</title>
<style>${REPORT_CSS}${VIEW_CSS}</style>
</head>
<body data-mode="${links.mode}" data-screen="${input.screen}">
<nav class="top"><b>isobudget</b>${items}${mode}</nav>
<main>
${input.body}
</main>
<script>${VIEW_SCRIPT}</script>
</body>
</html>
`;
}
