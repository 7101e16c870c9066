/**
 * Attribution flags (DESIGN §6) from the verdict's `attribution` section: each detector,
 * whether it fired, its summary and evidence, and the action it routes to. Flagged findings
 * first; detectors that had no data say so instead of looking clean. Pure.
 */
import type { Attribution } from '../../analysis/attribution/attribute.js';
import type { Evidence, Finding } from '../../analysis/attribution/finding.js';
import { escapeHtml as h } from './escape.js';

export function attributionSection(attribution: Attribution | undefined): string {
  const findings = attribution && Array.isArray(attribution.findings) ? attribution.findings : undefined;
  if (!findings) {
    return '<section class="attribution"><h2>Attribution</h2><p class="muted">This verdict carries no attribution (length gaming, pass@N posing as pass@1, tool-call redundancy, eval drift, hidden regressions). Re-decide with <code>isobudget analyze RUN_DIR</code> or run <code>isobudget attribute RUN_DIR</code>.</p></section>';
  }
  const rank = (f: Finding): number => (f.flagged ? 0 : f.applicable ? 1 : 2);
  const items = [...findings].sort((a, b) => rank(a) - rank(b)).map(findingItem);
  const flagged = findings.filter((f) => f.flagged).length;
  const lede = flagged ? `<b>${flagged}</b> of ${findings.length} detectors flagged a possible fake gain; each routes to an action.` : `None of ${findings.length} detectors flagged a fake gain.`;
  return `<section class="attribution"><h2>Attribution</h2><p class="lede">${lede}</p><ul class="findings">${items.join('')}</ul></section>`;
}

function findingItem(f: Finding): string {
  const state = f.flagged ? 'flagged' : f.applicable ? 'clear' : 'na';
  const label = f.flagged ? '⚑ flagged' : f.applicable ? '✓ clear' : '— no data';
  const action = f.action ? `<div class="finding-action">→ ${h(f.action)}${f.cause ? ` <span class="muted">(${h(f.cause.replace(/_/g, ' '))})</span>` : ''}</div>` : '';
  return `<li class="finding ${state}"><span class="finding-state">${label}</span> <b>${h(f.detector.replace(/_/g, ' '))}</b><div>${h(f.summary)}</div>${action}${evidence(f.evidence)}</li>`;
}

function evidence(values: Evidence | undefined): string {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return '';
  const show = (v: Evidence[string]): string => (v === null ? '—' : Array.isArray(v) ? `[${v.map(num).join(', ')}]` : typeof v === 'number' ? num(v) : String(v));
  return `<dl class="evidence">${entries.map(([k, v]) => `<dt>${h(k.replace(/_/g, ' '))}</dt><dd>${h(show(v))}</dd>`).join('')}</dl>`;
}

function num(x: number): string {
  return Number.isInteger(x) ? x.toLocaleString('en-US') : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3);
}
