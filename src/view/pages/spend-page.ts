/** Spend: a gateway's keys (budget, spent, remaining, closed reason) and its calls per day, model and tag. Pure. */
import { escapeHtml as h } from '../../report/html/escape.js';
import type { GatewaySpend, SpendGroup } from '../gateway-source.js';
import { count, usd } from './format.js';

function groupTable(title: string, rows: readonly SpendGroup[]): string {
  if (rows.length === 0) return '';
  return `<h2>${h(title)}</h2><table class="grid"><thead><tr><th>${h(title.replace(/^by /, ''))}</th><th class="num">calls</th><th class="num">tokens</th><th class="num">without usage</th><th class="num">cost</th></tr></thead><tbody>${rows.map((r) => `<tr><td>${h(r.group)}</td><td class="num">${count(r.calls)}</td><td class="num">${r.missing > 0 ? '≥' : ''}${count(r.tokens)}</td><td class="num">${r.missing}</td><td class="num">${usd(r.cost)}</td></tr>`).join('')}</tbody></table>`;
}

export function spendPage(spend: GatewaySpend | undefined): string {
  if (!spend) return '<h1>Spend</h1><p class="muted">No gateway data dir given: start the viewer with <code>--gateway DIR</code> (the gateway\'s <code>--data-dir</code>).</p>';
  const keys = spend.keys.map((k) => {
    const remaining = k.budget === null ? null : Math.max(0, k.budget - k.spent - k.reserved);
    const state = k.revoked ? 'revoked' : k.closed ? `closed: ${k.closed}` : remaining === 0 ? 'spent' : 'open';
    return `<tr><td><code>${h(k.id)}</code></td><td>${h(Object.entries(k.tags).map(([n, v]) => `${n}=${v}`).join(' '))}</td><td class="num">${k.budget === null ? 'no budget' : count(k.budget)}</td><td class="num">${count(k.spent)}</td><td class="num">${count(k.reserved)}</td><td class="num">${remaining === null ? '—' : count(remaining)}</td><td class="num">${count(k.overReservation)}</td><td>${h(state)}</td><td>${h(k.createdAt)}</td></tr>`;
  }).join('');
  const over = spend.overReservations.length
    ? `<h2>Over-reservation events <span class="muted">(${spend.overReservations.length})</span></h2><p class="lede">Calls the upstream billed beyond what the gateway reserved; each closed its key.</p><table class="grid"><thead><tr><th>time</th><th>key</th><th>model</th><th class="num">reserved</th><th class="num">billed beyond</th></tr></thead><tbody>${spend.overReservations.map((o) => `<tr><td>${h(o.ts)}</td><td><code>${h(o.keyId)}</code></td><td>${h(o.model)}</td><td class="num">${count(o.reserved)}</td><td class="num">${count(o.over)}</td></tr>`).join('')}</tbody></table>`
    : '<p class="muted">No over-reservation events.</p>';
  return `<h1>Spend</h1><p class="lede">Gateway data dir <code>${h(spend.dir)}</code>. Spent: tokens booked against the key (bills, and the reservation of every call whose bill is unknown). Reserved: calls in flight, read from the live spend journal (a running gateway's open reservations).${spend.unreadable ? ` ${spend.unreadable} ledger file(s) could not be read.` : ''}</p>
<h2>Keys <span class="muted">(${spend.keys.length})</span></h2><table class="grid"><thead><tr><th>key</th><th>tags</th><th class="num">budget</th><th class="num">spent</th><th class="num">reserved</th><th class="num">remaining</th><th class="num">over reservation</th><th>state</th><th>created</th></tr></thead><tbody>${keys}</tbody></table>
${over}${groupTable('by day', spend.byDay)}${groupTable('by model', spend.byModel)}${groupTable('by run / case / arm', spend.byTag)}`;
}
