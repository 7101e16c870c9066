/** The four-arm table (every arm, every n), pure HTML. */
import type { ArmMetrics } from '../../analysis/arm-metrics.js';
import type { Manifest } from '../../ledger/manifest.js';
import { quoteText } from '../../core/quote-text.js';
import { formatUsdSum } from '../../pricing/format-usd.js';
import { describePricing } from '../../pricing/pricing-record.js';
import { wilsonInterval } from '../../stats/index.js';
import { armLetter } from './arm-labels.js';
import { escapeHtml as h } from './escape.js';
import { count, pct } from './format.js';

/** Errors of an arm: count of paths, its share, and the kinds in the tooltip; "—" when the ledger has no paths. */
function errorCell(arm: ArmMetrics): string {
  const e = arm.errors as ArmMetrics['errors'] | undefined;
  if (e === undefined || e.paths === 0) return '<td class="errors">—</td>';
  const title = `${e.provider} provider, ${e.scorer} scorer, ${e.timeout} timeout${e.first === undefined ? '' : ` — first: ${quoteText(e.first, 200)}`}`;
  const share = `${count(e.errors)} / ${count(e.paths)}`;
  return `<td class="errors" title="${h(title)}">${e.errors > 0 ? `<b class="warn">${h(share)}</b>` : h(share)}<div class="ci">${h(pct(e.errors / e.paths))}</div></td>`;
}

/** Money beside the tokens: the arm's cost and cost per success (a lower bound, marked ≥, when some units have no price). */
function costCells(arm: ArmMetrics): string {
  const title = arm.unitsMissingCost > 0 ? ` title="${h(`${arm.unitsMissingCost} units have no price or no usage and are left out`)}"` : '';
  return `<td class="cost"${title}>${h(formatUsdSum(arm.costUsd, arm.unitsMissingCost))}</td><td class="cost"${title}>${h(formatUsdSum(arm.costPerSuccessUsd, arm.unitsMissingCost))}</td>`;
}

/**
 * What caps the arm's output, said so that it agrees with "paths cut by B" beside it. A chat
 * path is one call: B binds when ⌊(B − prompt)/n⌋ is below per_case_max_tokens. An agent
 * path's turns share ⌊B/n⌋, each turn getting what is left: B binds late in a path, never on
 * the first turn the cap column shows. Whatever the plan said, B binds for an arm some of
 * whose paths it cut.
 */
export function bindingText(arm: ArmMetrics, plan: Manifest['arms'][number] | undefined, manifest: Manifest | undefined): { text: string; title: string; perTurn: boolean } {
  const config = manifest?.config;
  // An import (promptfoo, inspect) ran under no B: neither "binds" nor "not binding" is true.
  if (config !== undefined && typeof (config.budget.totalTokensPerCase as number | null) !== 'number') return { text: 'B unknown', title: 'imported: the tool ran under no per-case token budget', perTurn: false };
  const agent = config?.executor.type === 'agent';
  const cut = arm.budgetExhaustedRate > 0;
  const binds = cut || plan?.binding === true;
  if (agent && config) {
    const share = Math.floor(config.budget.totalTokensPerCase / arm.n);
    return {
      text: `${binds ? 'B binds' : 'B not binding'}: ${count(share)} / path`,
      title: `each turn gets min(per_case_max_tokens ${count(config.budget.perCaseMaxTokens)}, what is left of the path's share ⌊B/n⌋ = ${count(share)} after its prompt)${cut ? `; B cut ${pct(arm.budgetExhaustedRate)} of the paths` : binds ? '; B can end a path before max_turns, though it cut none here' : ''}`,
      perTurn: true,
    };
  }
  return {
    text: binds ? 'B binds' : 'B not binding',
    title: binds ? `max_tokens per path = ⌊(B − prompt) / n⌋${cut ? `; B cut ${pct(arm.budgetExhaustedRate)} of the paths` : ''}` : 'every path is capped at per_case_max_tokens: the arms are capped alike but not spend-aligned',
    perTurn: false,
  };
}

export function armTableSection(arms: readonly ArmMetrics[], manifest: Manifest | undefined, confidence: number): string {
  const allN = arms.map((a) => a.n);
  const priced = arms.some((a) => a.costUsd !== null && a.costUsd !== undefined);
  const plan = new Map((manifest?.arms ?? []).map((a) => [a.arm, a]));
  const rows = arms.map((a) => {
    const trials = a.units === a.cases ? a.units : a.cases;
    const [lo, hi] = wilsonInterval(Math.round(a.selectedAtN * trials), trials, confidence);
    const p = plan.get(a.arm);
    const cap = p ? (p.minMaxTokensPerPath === p.maxMaxTokensPerPath ? count(p.minMaxTokensPerPath) : `${count(p.minMaxTokensPerPath)}–${count(p.maxMaxTokensPerPath)}`) : '—';
    const binds = bindingText(a, p, manifest);
    const passAtK = a.n > 1 ? Object.entries(a.passAtK).filter(([k]) => Number(k) > 1 && Number(k) < a.n).map(([k, v]) => `pass@${k} ${pct(v)}`).join(', ') : '';
    return `<tr class="variant-${a.variant}">
  <th scope="row"><span class="arm-letter">${h(armLetter(a, allN))}</span> ${h(a.arm)}</th>
  <td>${a.n}</td><td>${h(count(a.cases))}</td>
  <td class="strong">${h(pct(a.selectedAtN))}<div class="ci">[${h(pct(lo, 0))}, ${h(pct(hi, 0))}]</div></td>
  <td title="per-path pass rate${a.n > 1 ? ' (unbiased pass@1 over the n paths)' : ''}">${h(pct(a.passAt1))}</td>
  <td title="${h(passAtK)}">${a.n === 1 ? '—' : h(pct(a.passAtN))}</td>
  <td>${h(count(a.meanTokensPerCase))}</td><td>${h(count(a.tokensPerSuccess))}</td>${priced ? costCells(a) : ''}<td>${h(count(a.meanOutputTokens))}</td>
  <td title="${h(binds.title)}">${h(cap)}${binds.perTurn ? ' / turn' : ''}${p ? `<div class="ci">${h(binds.text)} · ${h(p.nMode)}</div>` : ''}</td>
  <td>${h(count(a.latencyP50Ms))} / ${h(count(a.latencyP95Ms))}</td>
  <td>${h(pct(a.budgetExhaustedRate))}</td><td>${h(count(a.retries))} / ${a.callsMissingUsage ? `<b class="warn">${h(count(a.callsMissingUsage))}</b>` : '0'}</td>
  ${errorCell(a)}
</tr>`;
  });
  return `<section class="arms"><h2>The arms</h2>
<p class="lede">Same cases, same budget per case. The product metric is the one in bold: pass@1 at n=1, selected@N (the path the selector picked) at n=N, with its ${Math.round(confidence * 100)}% Wilson interval. pass@N is the oracle upper bound (any path passed) — never a product metric.${priced ? ` Budgets are in tokens; money is shown beside them (${h(describePricing(manifest?.pricing))}).` : ''}</p>
<div class="table-wrap"><table class="arm-table">
<thead><tr><th>arm</th><th>n</th><th>cases</th><th>product pass rate</th><th>pass@1 per path</th><th>pass@N oracle</th><th>tokens / case</th><th>tokens / success</th>${priced ? '<th>cost (USD)</th><th>cost / success</th>' : ''}<th>output tokens / case</th><th>max_tokens / path</th><th>latency p50 / p95 ms</th><th>paths cut by B</th><th>retries / calls w/o usage</th><th>paths ended in an error</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div></section>`;
}
