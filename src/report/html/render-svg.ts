/**
 * Vega-Lite spec → static SVG string, rendered in Node at build time (no browser, no
 * network): the report embeds the SVG, so it opens offline and prints as vectors.
 *
 * vega and vega-lite are imported on first use, not at module load: every CLI command loads
 * this file through the command index, and only report writers should pay for the libraries.
 */
import type { TopLevelSpec } from 'vega-lite';
import { terminalSafe } from '../../core/terminal-text.js';

export interface RenderedChart {
  svg: string;
  /** Warnings vega-lite or vega logged (a spec bug when not empty; tests check it). */
  warnings: string[];
}

/** Fonts and colours shared by every chart of the report and the audit page. */
export const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  background: 'white',
  view: { stroke: '#e5e7eb' },
  axis: { labelColor: '#374151', titleColor: '#111827', gridColor: '#f0f1f3', domainColor: '#9ca3af', tickColor: '#9ca3af', labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600 },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: 'bottom' },
  title: { fontSize: 13, anchor: 'start', color: '#111827', subtitleColor: '#4b5563', subtitleFontSize: 11 },
  header: { labelFontSize: 11, labelColor: '#374151', titleFontSize: 11 },
} as const;

export async function renderChart(spec: TopLevelSpec, idPrefix: string): Promise<RenderedChart> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const warnings: string[] = [];
  const record = (...args: unknown[]): void => {
    warnings.push(args.map(String).join(' '));
  };
  const logger = {
    level(): number {
      return vega.Warn;
    },
    error(...args: unknown[]) {
      record(...args);
      return this;
    },
    warn(...args: unknown[]) {
      record(...args);
      return this;
    },
    info() {
      return this;
    },
    debug() {
      return this;
    },
  };
  const compiled = vegaLite.compile(spec, { config: CHART_CONFIG, logger }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    // Category names and case ids reach the SVG's text and aria-labels: no control character
    // from data may (XML forbids most of them; ESC would reach screen readers and copies).
    return { svg: scopeIds(terminalSafe(svg), idPrefix), warnings };
  } finally {
    view.finalize();
  }
}

/**
 * Several SVGs inline in one page share one id namespace: vega numbers its clip paths and
 * gradients per view (`clip1`, …), so two charts would point at each other's clips. Prefix
 * every id and every reference to one.
 */
function scopeIds(svg: string, prefix: string): string {
  return svg
    .replace(/\bid="([^"]+)"/g, (_, id: string) => `id="${prefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${prefix}-${id})`)
    .replace(/href="#([^"]+)"/g, (_, id: string) => `href="#${prefix}-${id}"`);
}
