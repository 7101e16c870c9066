/**
 * Memory: records by type (negative patterns first), weight, provenance and status; a
 * record's versions with their diffs; conflicts. Every record links to its source runs. Pure.
 */
import type { Conflict } from '../../memory/conflicts.js';
import type { MemoryRecord, MemoryType } from '../../memory/record.js';
import type { StoredVersion } from '../../memory/store/spec.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import type { Links } from '../links.js';
import { diffHtml } from './diff-html.js';
import { ci, pts } from './format.js';

const ORDER: readonly MemoryType[] = ['negative_pattern', 'skill', 'skill_candidate', 'learning'];

function runLink(runId: string, links: Links, known: ReadonlySet<string>): string {
  return known.has(runId) ? `<a href="${h(links.run(runId))}">${h(runId)}</a>` : `<code>${h(runId)}</code>`;
}

export function memoryPage(records: readonly MemoryRecord[], weights: ReadonlyMap<string, number>, conflicts: readonly Conflict[], links: Links, knownRuns: ReadonlySet<string>, store: string): string {
  const sections = ORDER.map((type) => {
    const own = records.filter((r) => r.type === type).sort((a, b) => (weights.get(b.memory_id) ?? 0) - (weights.get(a.memory_id) ?? 0));
    if (own.length === 0) return '';
    const rows = own.map((r) => `<tr><td><a href="${h(links.memory(r.memory_id))}">${h(r.memory_id)}</a></td><td>${h(r.title ?? r.subject)}</td><td><span class="badge">${h(r.status)}</span></td><td class="num">${(weights.get(r.memory_id) ?? r.weight).toFixed(2)}</td><td class="num">v${r.version}</td><td>${h(r.verdict)}</td><td class="num">${h(pts(r.same_budget_delta))}</td><td>B=${r.budget.toLocaleString('en-US')}, n=${r.n}, ${h(r.model)}</td><td>${runLink(r.source_run, links, knownRuns)}</td></tr>`).join('');
    return `<h2>${h(type.replace('_', ' '))}s <span class="muted">(${own.length})</span></h2><table class="grid"><thead><tr><th>id</th><th>subject</th><th>status</th><th class="num">weight</th><th class="num">version</th><th>verdict</th><th class="num">n=1 Δ</th><th>provenance</th><th>source run</th></tr></thead><tbody>${rows}</tbody></table>`;
  }).join('\n');
  const conflictList = conflicts.length ? `<h2>Conflicts <span class="muted">(${conflicts.length})</span></h2><ul class="notes warnings">${conflicts.map((c) => `<li><b>${h(c.subject)}</b>: ${c.positive.map((r) => `<a href="${h(links.memory(r.memory_id))}">${h(r.memory_id)}</a>`).join(', ')} say it helps; ${c.negative.map((r) => `<a href="${h(links.memory(r.memory_id))}">${h(r.memory_id)}</a>`).join(', ')} say it does not</li>`).join('')}</ul>` : '';
  return `<h1>Memory</h1><p class="lede">${records.length} records in <code>${h(store)}</code>. Negative patterns first: what not to pursue again, with the budget and n it was measured at. Weights decay with time (read as of now).</p>${conflictList}${sections || '<p class="muted">No records yet: <code>npx isobudget memory ingest latest</code> files a run\'s verdict.</p>'}`;
}

export function memoryRecordPage(record: MemoryRecord, versions: readonly StoredVersion[], weight: number, links: Links, knownRuns: ReadonlySet<string>): string {
  const facts: Array<[string, string]> = [
    ['type', h(record.type)], ['status', `${h(record.status)}${record.status_reason ? ` — ${h(record.status_reason)}` : ''}`], ['weight (now)', weight.toFixed(3)],
    ['verdict', h(record.verdict)], ['same-budget n=1 delta', `${h(pts(record.same_budget_delta))} ${h(ci(record.same_budget_ci95))}`],
    ['budget / n', `B = ${record.budget.toLocaleString('en-US')} tokens, n = ${record.n}`], ['model', h(record.model)], ['base URL', h(record.base_url)],
    ['source', h(record.source)], ['runs', record.run_ids.map((id) => runLink(id, links, knownRuns)).join(', ') || '—'],
    ['reason', h(record.reason ?? '—')],
  ];
  const history = [...versions].reverse().map((v) => `<li><b>v${v.record.version}</b> ${h(v.created_at)} — ${h(v.record.changelog)} <span class="badge">${h(v.record.status)}</span>${v.diff ? diffHtml(v.diff) : ''}</li>`).join('');
  const body = record.skill ? `<h2>Skill text</h2><pre class="text">${h(record.skill.text)}</pre>` : record.body ? `<h2>Text</h2><pre class="text">${h(record.body)}</pre>` : '';
  return `<p><a href="${h(links.memory())}">← memory</a></p><h1>${h(record.memory_id)}</h1><p class="lede">${h(record.title ?? record.subject)}</p>
<dl class="meta">${facts.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl>${body}
<h2>Versions</h2><ul>${history}</ul>`;
}
