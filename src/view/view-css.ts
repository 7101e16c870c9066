/** The viewer's styles on top of the report's (inline: no request leaves for a stylesheet). */
export const VIEW_CSS = `
nav.top { position: sticky; top: 0; z-index: 5; display: flex; gap: 4px; align-items: center; padding: 8px 28px; background: #0f172a; color: white; font-size: 14px; }
nav.top b { margin-right: 16px; letter-spacing: .02em; }
nav.top a { color: #cbd5e1; text-decoration: none; padding: 4px 10px; border-radius: 6px; }
nav.top a[aria-current="page"] { background: #1e293b; color: white; font-weight: 600; }
nav.top a:hover { color: white; }
nav.top .mode { margin-left: auto; color: #fbbf24; font-size: 12px; }
table.grid { border-collapse: collapse; width: 100%; background: white; font-size: 13px; }
table.grid th, table.grid td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
table.grid th { background: #f1f5f9; font-weight: 600; position: sticky; top: 37px; }
table.grid td.num, table.grid th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.pass { color: var(--good); font-weight: 600; } td.fail { color: var(--bad); } td.mixed { color: var(--warn); font-weight: 600; }
.flag { display: inline-block; font-size: 11px; padding: 0 5px; border-radius: 4px; background: var(--warn-bg); color: var(--warn); margin-left: 4px; }
.flag.bad { background: var(--bad-bg); color: var(--bad); }
form.toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0; }
form.toolbar input[type="search"], form.toolbar input[type="text"], form.toolbar select { font: inherit; padding: 4px 8px; border: 1px solid #cbd5e1; border-radius: 6px; background: white; }
.pager { display: flex; gap: 10px; align-items: center; margin: 8px 0; font-size: 13px; }
.pager a { text-decoration: none; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: var(--neutral-bg); color: var(--neutral); }
.badge.v-real_evolution { background: var(--good-bg); color: var(--good); }
.badge.v-regression, .badge.v-invalid { background: var(--bad-bg); color: var(--bad); }
.badge.v-budget_leakage, .badge.v-budget_growth, .badge.v-inconclusive { background: var(--warn-bg); color: var(--warn); }
.badge.s-running { background: #eff6ff; color: var(--cand); } .badge.s-interrupted, .badge.s-broken { background: var(--bad-bg); color: var(--bad); }
pre.text { white-space: pre-wrap; word-break: break-word; background: white; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; max-height: 360px; overflow: auto; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.paths { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 10px; }
.path { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; }
.path.passed { border-left: 4px solid var(--good); } .path.failed { border-left: 4px solid var(--bad); }
.cards { display: grid; gap: 14px; }
.card { background: white; border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; outline: none; }
.card:focus, .card.focused { box-shadow: 0 0 0 3px #93c5fd; }
.card .actions { display: flex; gap: 8px; align-items: center; margin-top: 10px; flex-wrap: wrap; }
.card button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid #cbd5e1; background: white; cursor: pointer; }
.card button.approve { border-color: var(--good); color: var(--good); } .card button.reject { border-color: var(--bad); color: var(--bad); }
.card .outcome { font-weight: 600; }
.diff { white-space: pre; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f8fafc; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; overflow: auto; max-height: 320px; }
.diff .add { color: var(--good); } .diff .del { color: var(--bad); }
.layers { list-style: none; padding: 0; margin: 6px 0; font-size: 13px; }
.warnings li { color: var(--warn); }
.kbd { font: 11px ui-monospace, monospace; border: 1px solid #cbd5e1; border-radius: 4px; padding: 0 4px; background: #f8fafc; }
`;
