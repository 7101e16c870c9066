/**
 * A case's detail, pure: input and expected answer, then every arm's epochs and paths with
 * the scored field first (an agent's raw client envelope folded below it), the scorer's and
 * judge's explanation, the tool-call trajectory, and every model call of the case.
 */
import { parseOutputField } from '../../core/output-field.js';
import type { CallRecord, PathOutcome, ResultRecord } from '../../ledger/records.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import { readOutputField } from '../../scorers/output-field.js';
import type { Links } from '../links.js';
import type { RunView } from '../run-source.js';
import { count, usd } from './format.js';

function scoredText(output: string, field: string | undefined): { text: string; raw: boolean } {
  if (field === undefined) return { text: output, raw: false };
  const steps = parseOutputField(field);
  if (!steps) return { text: output, raw: false };
  const read = readOutputField(output, steps, field);
  return read.ok ? { text: read.text, raw: true } : { text: output, raw: false };
}

function pathHtml(path: PathOutcome, field: string | undefined, selected: boolean): string {
  const scored = scoredText(path.output, field);
  const facts = [
    `path ${path.path}${selected ? ' (selected)' : ''}`,
    path.passed ? 'passed' : 'failed',
    `score ${path.score}`,
    `finish ${path.finish_reason}`,
    path.tokens === undefined ? 'tokens ?' : `${count(path.tokens)} tokens`,
    ...(path.turns === undefined ? [] : [`${path.turns} turns`]),
  ];
  const judge = path.judge ? `<p><b>judge</b> ${h(path.judge.score.toFixed(2))}${path.judge.error ? ` — error: ${h(path.judge.error)}` : ''}: ${h(path.judge.rationale)}</p>` : '';
  const error = path.error ? `<p class="flag bad">error: ${h(path.error)}</p>` : '';
  const trajectory = path.trajectory?.length
    ? `<details><summary>tool calls (${path.trajectory.length})</summary><table class="grid"><thead><tr><th>turn</th><th>tool</th><th>args</th><th class="num">result bytes</th><th class="num">ms</th><th>error</th></tr></thead><tbody>${path.trajectory.map((s) => `<tr><td>${s.turn}</td><td>${h(s.tool)}${s.retry ? ' <span class="flag">retry</span>' : ''}</td><td><code>${h(s.args_hash)}</code></td><td class="num">${count(s.result_bytes)}</td><td class="num">${count(s.duration_ms)}</td><td>${h(s.error ?? '')}</td></tr>`).join('')}</tbody></table></details>`
    : '';
  const raw = scored.raw ? `<details><summary>raw output (the client's envelope; scored field <code>${h(field ?? '')}</code> shown above)</summary><pre class="text">${h(path.output)}</pre></details>` : '';
  return `<div class="path ${path.passed ? 'passed' : 'failed'}"><div class="muted">${facts.map(h).join(' · ')}</div>${error}<pre class="text">${h(scored.text)}</pre>${raw}${judge}${trajectory}</div>`;
}

function resultHtml(result: ResultRecord, field: string | undefined): string {
  const head = `<h3>${h(result.arm)} <span class="muted">n=${result.n}${result.n === 1 ? `, epoch ${result.epoch}` : ''} · ${result.passed ? 'passed' : 'failed'}${result.n > 1 ? ` · ${result.passes}/${result.paths.length} paths passed` : ''} · ${result.total_tokens === undefined ? 'tokens ?' : `${count(result.total_tokens)} tokens`} · ${usd(result.cost_usd ?? null)}</span></h3>`;
  return `${head}<div class="paths">${result.paths.map((p) => pathHtml(p, field, result.selected_path === p.path || result.n === 1)).join('')}</div>`;
}

function callsHtml(calls: readonly CallRecord[]): string {
  if (calls.length === 0) return '<p class="muted">No call records for this case.</p>';
  const rows = calls.map((c) => `<tr><td>${h(c.arm)}</td><td class="num">${c.epoch}</td><td class="num">${c.path}${c.paths > 1 ? `+${c.paths - 1}` : ''}</td><td>${h(c.role)}</td><td>${h(c.model)}</td><td class="num">${c.attempt}</td><td class="num">${count(c.prompt_tokens)}</td><td class="num">${count(c.completion_tokens)}</td><td class="num">${c.usage_missing ? '<span class="flag bad">unknown</span>' : count(c.total_tokens)}</td><td class="num">${count(c.max_tokens)}</td><td class="num">${usd(c.cost_usd ?? null)}</td><td class="num">${count(c.latency_ms)}</td><td>${h(c.finish_reason)}</td><td>${h([c.status === undefined ? '' : `HTTP ${c.status}`, c.error ?? '', c.note ?? ''].filter(Boolean).join(' · '))}</td></tr>`).join('');
  return `<table class="grid"><thead><tr><th>arm</th><th class="num">epoch</th><th class="num">path</th><th>role</th><th>model</th><th class="num">attempt</th><th class="num">prompt</th><th class="num">completion</th><th class="num">total</th><th class="num">max_tokens</th><th class="num">cost</th><th class="num">ms</th><th>finish</th><th>status / error</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function casePage(run: RunView, caseId: string, split: string, calls: readonly CallRecord[], links: Links): string | undefined {
  const results = run.results.filter((r) => r.case_id === caseId && r.split === split);
  if (results.length === 0) return undefined;
  const text = run.report.texts.get(caseId);
  const field = run.manifest.config.scorer.outputField;
  const order = new Map(run.manifest.arms.map((a, i) => [a.arm, i]));
  results.sort((x, y) => (order.get(x.arm) ?? 99) - (order.get(y.arm) ?? 99) || x.epoch - y.epoch);
  const own = calls.filter((c) => c.case_id === caseId && c.split === split);
  return `<p><a href="${h(links.run(run.id))}">← ${h(run.id)}</a></p>
<h1>Case ${h(caseId)}</h1><p class="lede">${h(split)}${results[0]?.category ? ` · category ${h(results[0].category)}` : ''} · scorer ${h(run.manifest.scorer.name)}${field ? ` on field <code>${h(field)}</code>` : ''}</p>
<section><h2>Input</h2>${text ? `<pre class="text">${h(text.input)}</pre><h3>Expected</h3><pre class="text">${h(text.expected)}</pre>` : `<p class="muted">Not shown: ${h(run.report.notes.join('; ') || 'the dataset is not available')}.</p>`}</section>
<section><h2>Arms</h2>${results.map((r) => resultHtml(r, field)).join('')}</section>
<section><h2>Calls</h2>${callsHtml(own)}</section>`;
}
