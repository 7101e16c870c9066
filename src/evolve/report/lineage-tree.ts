/**
 * The lineage as a tree, pure SVG: one column per round (the starting skill in column 0),
 * one node per proposal, an edge from each proposal to the incumbent it edited. Accepted
 * nodes are green and carry the line on; rejected ones grey; dropped ones dashed. Text goes
 * through escapeHtml like every other string of the report.
 */
import { escapeHtml as h } from '../../report/html/escape.js';
import type { LineageEntry } from '../types.js';

const COLUMN = 170;
const ROW = 58;
const NODE_W = 132;
const NODE_H = 40;
const PAD = 16;

const STYLE: Record<LineageEntry['status'] | 'start', { fill: string; stroke: string; dash: string }> = {
  start: { fill: '#eef2ff', stroke: '#4f46e5', dash: '' },
  accepted: { fill: '#dcfce7', stroke: '#15803d', dash: '' },
  rejected: { fill: '#f3f4f6', stroke: '#6b7280', dash: '' },
  dropped: { fill: '#ffffff', stroke: '#9ca3af', dash: '4 3' },
};

export function lineageTreeSvg(lineage: readonly LineageEntry[], startVersion: string): string {
  const rows = new Map<number, number>();
  const at = new Map<string, { x: number; y: number }>();
  const nodes: string[] = [];
  const edges: string[] = [];
  const place = (column: number): { x: number; y: number } => {
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    return { x: PAD + column * COLUMN, y: PAD + row * ROW };
  };
  const start = place(0);
  at.set(startVersion, start);
  nodes.push(node(start, 'start', `v${startVersion}`, 'start'));
  for (const entry of lineage) {
    const position = place(entry.round);
    const parent = at.get(entry.parent) ?? start;
    edges.push(`<path d="M${parent.x + NODE_W} ${parent.y + NODE_H / 2} C${parent.x + NODE_W + 20} ${parent.y + NODE_H / 2}, ${position.x - 20} ${position.y + NODE_H / 2}, ${position.x} ${position.y + NODE_H / 2}" fill="none" stroke="${entry.status === 'accepted' ? '#15803d' : '#cbd5e1'}" stroke-width="${entry.status === 'accepted' ? 2.5 : 1.2}"/>`);
    if (entry.version !== null && entry.status === 'accepted') at.set(entry.version, position);
    const label = entry.status === 'dropped' ? 'dropped' : entry.verdict ?? entry.status;
    nodes.push(node(position, entry.status, `v${entry.version ?? '?'} · r${entry.round}`, label, `${entry.summary}\n${entry.reason}`));
  }
  const width = PAD * 2 + Math.max(...rows.keys()) * COLUMN + NODE_W;
  const height = PAD * 2 + (Math.max(...rows.values()) - 1) * ROW + NODE_H;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="lineage tree">${edges.join('')}${nodes.join('')}</svg>`;
}

function node(position: { x: number; y: number }, status: LineageEntry['status'] | 'start', title: string, subtitle: string, tooltip?: string): string {
  const style = STYLE[status];
  return `<g><title>${h(tooltip ?? title)}</title><rect x="${position.x}" y="${position.y}" width="${NODE_W}" height="${NODE_H}" rx="7" fill="${style.fill}" stroke="${style.stroke}" stroke-width="1.5"${style.dash ? ` stroke-dasharray="${style.dash}"` : ''}/>`
    + `<text x="${position.x + 8}" y="${position.y + 16}" font-size="12" font-weight="700" fill="#111827" font-family="system-ui, sans-serif">${h(title)}</text>`
    + `<text x="${position.x + 8}" y="${position.y + 31}" font-size="11" fill="#374151" font-family="system-ui, sans-serif">${h(subtitle)}</text></g>`;
}
