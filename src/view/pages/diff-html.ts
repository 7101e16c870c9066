/** A unified diff as escaped HTML, added and removed lines marked. Pure. */
import { escapeHtml as h } from '../../report/html/escape.js';

export function diffHtml(diff: string, maxLines = 400): string {
  const lines = diff.trimEnd().split('\n');
  const shown = lines.slice(0, maxLines).map((line) => {
    const cls = line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : '';
    return cls ? `<span class="${cls}">${h(line)}</span>` : h(line);
  });
  if (lines.length > maxLines) shown.push(h(`… ${lines.length - maxLines} more lines`));
  return `<div class="diff">${shown.join('\n')}</div>`;
}
