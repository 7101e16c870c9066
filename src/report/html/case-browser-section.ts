/** The browsable table of cases: controls, an empty table the inline script fills, the data. Pure. */
import type { CaseBrowserData } from './case-data.js';
import { escapeHtml as h } from './escape.js';

/** `payload`: the data packed by packCases (gzip, base64). */
export function caseBrowserSection(data: CaseBrowserData, payload: string): string {
  const legend = data.arms.map((a) => `<b>${h(a.label)}</b> ${h(a.arm)}`).join(' · ');
  const cut = data.truncatedOutputs > 0 ? ` ${data.truncatedOutputs.toLocaleString('en-US')} long outputs are cut at ${data.outputLimit.toLocaleString('en-US')} characters to keep this file small; each says so, and results.jsonl has the full text.` : '';
  return `<section class="cases" id="cases"><h2>Cases</h2>
<p class="lede">Every case with each arm's outcome (✓/✗) and billed tokens; a <span class="flag">B</span> marks a path cut by the budget. Click a row for the input, the expected answer and every arm's outputs (identical outputs of the paths merged, the selected one first). ${legend}.${h(cut)}</p>
<div class="controls">
  <label>Show <select id="cb-filter">
    <option value="all">all cases</option>
    <option value="lost">candidate lost at n=1 (A ✓, B ✗)</option>
    <option value="won">candidate won at n=1 (A ✗, B ✓)</option>
    <option value="lostN">candidate lost at n=N (C ✓, D ✗)</option>
    <option value="onlyN">solved only with Best-of-N (B ✗, D ✓)</option>
    <option value="disagree">arms disagree</option>
    <option value="allFail">every arm failed</option>
    <option value="exhausted">budget exhausted somewhere</option>
  </select></label>
  <label>Category <select id="cb-category"><option value="">all</option></select></label>
  <label>Split <select id="cb-split"><option value="">all</option></select></label>
  <label class="search">Search <input id="cb-search" type="search" placeholder="case id, input or output text" autocomplete="off"></label>
  <span id="cb-count" class="muted"></span>
</div>
<div class="table-wrap"><table class="case-table"><thead id="cb-head"></thead><tbody id="cb-body"></tbody></table></div>
<div class="pager"><button type="button" id="cb-prev">← previous</button> <span id="cb-page"></span> <button type="button" id="cb-next">next →</button></div>
<noscript><p>The case table needs JavaScript; the data is in results.jsonl beside this file.</p></noscript>
<script type="text/plain" id="case-data" data-encoding="gzip+base64">${payload}</script>
</section>`;
}
