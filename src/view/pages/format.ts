/** Number and label formats shared by the viewer's screens. */
import { escapeHtml as h } from '../../report/html/escape.js';
import { formatUsd } from '../../pricing/format-usd.js';

export const count = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : Math.round(value).toLocaleString('en-US'));
export const pct = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`);
export const pts = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} pts`);
export const usd = (value: number | null | undefined): string => (value === null || value === undefined ? 'unknown' : formatUsd(value));
export const ci = (interval: readonly [number, number] | null | undefined): string => (interval ? `[${pts(interval[0])}, ${pts(interval[1])}]` : 'n/a');

export function verdictBadge(verdict: string | null | undefined): string {
  return verdict ? `<span class="badge v-${h(verdict)}">${h(verdict)}</span>` : '<span class="muted">—</span>';
}

export function statusBadge(status: string, id?: string): string {
  return `<span class="badge s-${h(status)}"${id === undefined ? '' : ` data-status="${h(id)}"`}>${h(status)}</span>`;
}

export function age(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
