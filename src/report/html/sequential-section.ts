/** The report's sequential screening section (issue 14): the stop, the anytime-valid bounds at each look, the tokens. Pure. */
import type { SequentialRecord } from '../../verdict/sequential-record.js';
import { tokensLine } from '../sequential-text.js';
import { escapeHtml as h } from './escape.js';
import { pts, ptsInterval } from './format.js';

export function sequentialSection(section: SequentialRecord | undefined): string {
  if (!section) return '';
  const level = (x: number): string => `${Math.round(x * 1000) / 10}%`;
  const rows = section.looks.map((look) => `<tr><td class="num">${h(look.cases)}</td><td class="num">${h(pts(look.delta))}</td><td>${h(ptsInterval(look.cs))}</td><td class="num">${h(pts(look.gain_bound))}</td><td class="num">${h(pts(look.futility_bound))}</td><td>${h(look.decision)}</td></tr>`).join('');
  const n1 = section.n1;
  return `<section class="sequential"><h2>Sequential screening</h2>
<p>Stopped after <b>${h(section.stopped_at)}</b> of ${h(section.planned_cases)} cases (<b>${h(section.stop_reason)}</b>). n=1 delta ${h(pts(n1.delta))}, anytime-valid ${h(level(section.method.confidence))} CS ${h(ptsInterval(n1.cs))}${section.bestofn ? `; selected@${h(section.bestofn.n)} ${h(pts(section.bestofn.delta))}, CS ${h(ptsInterval(section.bestofn.cs))}` : ''}. ${h(tokensLine(section))}.</p>
<p class="muted">Method: ${h(section.method.interval)} — ${h(section.method.reference)}; bets ${h(section.method.bets)}. The bootstrap intervals above assume a fixed number of cases and are <b>not valid under optional stopping</b>; the confidence sequence is valid at every look.</p>
<div class="table-wrap"><table><thead><tr><th>cases</th><th>n=1 delta</th><th>${h(level(section.method.confidence))} CS</th><th>${h(level(section.method.gain_confidence))} gain bound</th><th>${h(level(section.method.futility_confidence))} futility bound</th><th>decision</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}
