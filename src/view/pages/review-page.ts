/**
 * Review: the five-layer gate's human queue as cards — the skill's diff, the n=1 delta and
 * CI, tokens per success, the Best-of-N difference, the regression and budget facts, why a
 * human is needed — with approve / reject, a note and the reviewer's name (j/k to move, a/r
 * to decide). The automatic layers sit beside the card; a decision is recorded as layer 5
 * and never changes a pass rate. Pure.
 */
import type { GateLayerResult, ReviewDecision, ReviewItem } from '../../memory/store/records.js';
import { escapeHtml as h } from '../../report/html/escape.js';
import type { Links } from '../links.js';
import { diffHtml } from './diff-html.js';
import { ci, count, pts } from './format.js';

export interface ReviewEntry {
  item: ReviewItem;
  layers: readonly GateLayerResult[];
  decisions: readonly ReviewDecision[];
}

function cardHtml(entry: ReviewEntry, links: Links, actionable: boolean): string {
  const { item } = entry;
  const { card } = item;
  const facts: string[] = [];
  if (card.same_budget) facts.push(`<li><b>same budget, n=1</b> (${h(card.same_budget.split)}, ${card.same_budget.cases} cases): ${h(pts(card.same_budget.delta))}, 95% CI ${h(ci(card.same_budget.ci95))}</li>`);
  if (card.tokens_per_success) facts.push(`<li><b>tokens/success</b>: ${count(card.tokens_per_success.baseline)} → ${count(card.tokens_per_success.candidate)}${card.tokens_per_success.growth === null ? '' : ` (×${card.tokens_per_success.growth.toFixed(2)})`}${card.p95_latency_ratio === null ? '' : `; p95 latency ×${card.p95_latency_ratio.toFixed(2)}`}</li>`);
  if (card.bestofn) facts.push(`<li><b>Best-of-N</b> n=${card.bestofn.n}: delta ${h(pts(card.bestofn.delta))}${card.bestofn.total_tokens_ratio === null ? '' : `, total tokens ×${card.bestofn.total_tokens_ratio.toFixed(2)}`}</li>`);
  facts.push(`<li><b>attribution</b>: ${card.attribution.length ? card.attribution.map(h).join('; ') : 'no flags'}</li>`);
  for (const change of card.policy_changes) facts.push(`<li><b>budget policy</b>: ${h(change)}</li>`);
  for (const fact of card.facts) facts.push(`<li>${h(fact)}</li>`);
  const layers = entry.layers.length
    ? `<ul class="layers">${entry.layers.map((l) => `<li class="check ${l.status === 'passed' ? 'ok' : l.status === 'failed' ? 'fail' : ''}"><span class="mark">${l.status === 'passed' ? '✓' : l.status === 'failed' ? '✗' : '·'}</span>layer ${l.layer} ${h(l.name)}: ${h(l.summary)}</li>`).join('')}</ul>`
    : '<p class="muted">No gate layers recorded for this item.</p>';
  const decided = entry.decisions.map((d) => `<li>${h(d.decision)} by ${h(d.reviewer)} at ${h(d.decided_at)}${d.note ? `: ${h(d.note)}` : ''}</li>`).join('');
  const waiting = item.status === 'pending' || item.status === 'deferred';
  const actions = waiting && actionable
    ? `<div class="actions"><textarea rows="1" cols="50" placeholder="note (optional)" aria-label="note"></textarea><button class="approve" data-decision="approve">approve <span class="kbd">a</span></button><button class="reject" data-decision="reject">reject <span class="kbd">r</span></button><span class="outcome" role="status"></span></div>`
    : waiting ? '<p class="muted">Read-only here: decide with <code>isobudget review --decide</code>.</p>' : '';
  return `<article class="card" tabindex="0"${waiting ? ` data-review="${h(item.review_id)}"` : ''}>
<div class="verdict-head"><b>${h(item.review_id)}</b><span class="badge">${h(item.kind)}</span><span class="badge">${h(item.status)}</span><span>${h(card.title)}</span></div>
<p class="muted">record <a href="${h(links.memory(item.memory_id))}">${h(item.memory_id)}</a> v${item.memory_version}${item.gate_id ? `, gate ${h(item.gate_id)}` : ''}, queued ${h(item.created_at)}</p>
${item.reasons.length ? `<p><b>Why a human:</b> ${item.reasons.map(h).join('; ')}</p>` : ''}
<div class="checks-and-notes"><div><h3>Evidence</h3><ul class="notes">${facts.join('')}</ul></div><div><h3>Automatic layers</h3>${layers}</div></div>
${card.diff ? `<h3>What changed</h3>${diffHtml(card.diff)}` : ''}
${decided ? `<h3>Decisions</h3><ul>${decided}</ul>` : ''}
${actions}</article>`;
}

export function reviewPage(waiting: readonly ReviewEntry[], decided: readonly ReviewEntry[], links: Links, actionable: boolean, store: string): string {
  const who = actionable ? '<div class="toolbar"><label>reviewer <input type="text" id="reviewer" autocomplete="name" size="20"></label> <span class="muted">j / k: next / previous card · a: approve · r: reject</span></div>' : '';
  return `<h1>Review</h1><p class="lede">${waiting.length} waiting in <code>${h(store)}</code>: only candidates that passed gate layers 1–4, and changes that always need a person. A decision is written exactly as <code>isobudget review --decide</code> writes it (memory versions, audit trail, gate layer 5); pass rates never change with it.</p>
${who}
<div class="cards">${waiting.map((e) => cardHtml(e, links, actionable)).join('\n') || '<p class="muted">Nothing waiting for review.</p>'}</div>
${decided.length ? `<h2>Decided</h2><div class="cards">${decided.map((e) => cardHtml(e, links, false)).join('\n')}</div>` : ''}`;
}
