/**
 * Attribution flags (DESIGN §6) when the verdict carries an `attribution` section. That
 * section is written by another part of isobudget and may grow; this reads it tolerantly —
 * a list of findings (or an object holding one) with a name, whether it fired, a summary and
 * an action — and falls back to showing unknown shapes as escaped JSON rather than failing.
 */
import { escapeHtml as h } from './escape.js';

export interface AttributionFinding {
  name: string;
  flagged: boolean | undefined;
  summary: string;
  action: string | undefined;
  severity: string | undefined;
}

export function attributionFindings(section: unknown): AttributionFinding[] | undefined {
  const list = Array.isArray(section) ? section : isObject(section) ? (firstArray(section, ['findings', 'flags', 'detectors', 'items']) ?? objectEntries(section)) : undefined;
  if (!list) return undefined;
  const findings = list.filter(isObject).map((f) => ({
    name: text(f, ['name', 'detector', 'kind', 'type', 'id']) ?? 'finding',
    flagged: bool(f, ['flagged', 'fired', 'detected', 'triggered', 'flag']),
    summary: text(f, ['summary', 'detail', 'message', 'reason', 'explanation', 'description']) ?? '',
    action: text(f, ['action', 'route', 'routing', 'recommendation', 'disposition']),
    severity: text(f, ['severity', 'level']),
  }));
  return findings.length ? findings : undefined;
}

export function attributionSection(section: unknown): string {
  if (section === undefined || section === null) {
    return '<section class="attribution"><h2>Attribution</h2><p class="muted">This verdict has no attribution section (length gaming, pass@N posing as pass@1, tool-call redundancy, eval drift, hidden regressions); run a version of isobudget that writes one to see its flags here.</p></section>';
  }
  const findings = attributionFindings(section);
  if (!findings) {
    return `<section class="attribution"><h2>Attribution</h2><pre class="text">${h(JSON.stringify(section, null, 2))}</pre></section>`;
  }
  const sorted = [...findings].sort((a, b) => Number(b.flagged === true) - Number(a.flagged === true));
  const items = sorted.map((f) => {
    const state = f.flagged === true ? 'flagged' : f.flagged === false ? 'clear' : 'info';
    return `<li class="finding ${state}"><span class="finding-state">${state === 'flagged' ? '⚑ flagged' : state === 'clear' ? '✓ clear' : 'ℹ'}</span> <b>${h(f.name.replace(/_/g, ' '))}</b>${f.severity ? ` <span class="muted">(${h(f.severity)})</span>` : ''}${f.summary ? `<div>${h(f.summary)}</div>` : ''}${f.action ? `<div class="finding-action">→ ${h(f.action)}</div>` : ''}</li>`;
  });
  return `<section class="attribution"><h2>Attribution</h2><p class="lede">Where a gain could be fake, and what to do about each finding.</p><ul class="findings">${items.join('')}</ul></section>`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function firstArray(object: Record<string, unknown>, keys: readonly string[]): unknown[] | undefined {
  for (const key of keys) {
    const value = object[key];
    if (Array.isArray(value)) return value;
  }
  return undefined;
}

/** `{ length_gaming: {...}, leakage: {...} }`: each key a detector. */
function objectEntries(object: Record<string, unknown>): unknown[] | undefined {
  const entries = Object.entries(object).filter(([, v]) => isObject(v));
  return entries.length ? entries.map(([name, v]) => ({ name, ...(v as Record<string, unknown>) })) : undefined;
}

function text(object: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function bool(object: Record<string, unknown>, keys: readonly string[]): boolean | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'boolean') return value;
  }
  return undefined;
}
