/** The report's stylesheet (inline: the file must open with no network). */
export const REPORT_CSS = `
:root { --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --bg: #f8fafc; --good: #15803d; --good-bg: #f0fdf4; --bad: #b91c1c; --bad-bg: #fef2f2; --warn: #b45309; --warn-bg: #fffbeb; --neutral: #374151; --neutral-bg: #f3f4f6; --cand: #2563eb; --base: #64748b; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 13px; font-weight: 600; color: var(--muted); margin: 0 0 12px; letter-spacing: .02em; text-transform: uppercase; }
h2 { font-size: 18px; margin: 32px 0 8px; }
h3 { font-size: 13px; margin: 0 0 6px; color: var(--neutral); }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
.lede { color: var(--neutral); max-width: 90ch; margin: 0 0 12px; }
.verdict { border-radius: 10px; padding: 18px 22px; border: 1px solid var(--line); background: white; border-left-width: 8px; }
.verdict.tone-good { border-left-color: var(--good); background: var(--good-bg); }
.verdict.tone-bad { border-left-color: var(--bad); background: var(--bad-bg); }
.verdict.tone-warn { border-left-color: var(--warn); background: var(--warn-bg); }
.verdict.tone-neutral { border-left-color: var(--neutral); background: var(--neutral-bg); }
.verdict-head { display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
.verdict-name { font-size: 30px; font-weight: 800; text-transform: uppercase; letter-spacing: .01em; }
.tone-good .verdict-name { color: var(--good); } .tone-bad .verdict-name { color: var(--bad); } .tone-warn .verdict-name { color: var(--warn); }
.verdict-who { font-size: 14px; }
.action { font-size: 16px; font-weight: 600; margin: 10px 0 4px; }
.reason { margin: 0; color: var(--neutral); max-width: 110ch; }
.power { margin: 6px 0 0; }
.figures { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 10px; margin: 14px 0; }
.figure { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; border-top: 3px solid var(--line); }
.figure.tone-good { border-top-color: var(--good); } .figure.tone-bad { border-top-color: var(--bad); } .figure.tone-neutral { border-top-color: #cbd5e1; }
.figure-title { font-size: 12px; color: var(--muted); }
.figure-value { font-size: 20px; font-weight: 700; margin: 2px 0; }
.figure-detail { font-size: 12px; color: var(--neutral); }
.checks-and-notes { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.checks, .notes, .findings { list-style: none; margin: 0; padding: 0; }
.check { padding: 3px 0; font-size: 13px; }
.check .mark { display: inline-block; width: 18px; font-weight: 700; }
.check.ok .mark { color: var(--good); } .check.fail .mark { color: var(--bad); } .check.fail code { color: var(--bad); font-weight: 700; }
.notes li { font-size: 13px; padding: 3px 0 3px 14px; position: relative; }
.notes li::before { content: "!"; position: absolute; left: 0; color: var(--warn); font-weight: 800; }
.charts { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 16px; align-items: start; }
.chart { margin: 0; background: white; border: 1px solid var(--line); border-radius: 8px; padding: 12px; overflow-x: auto; break-inside: avoid; }
.chart figcaption { font-size: 12px; color: var(--neutral); margin-bottom: 8px; max-width: 95ch; }
.chart figcaption b { display: block; font-size: 14px; color: var(--fg); margin-bottom: 2px; }
.chart svg { max-width: 100%; height: auto; display: block; }
.chart.wide { grid-column: 1 / -1; }
.table-wrap { overflow-x: auto; background: white; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 6px 8px; border-bottom: 1px solid var(--line); text-align: right; vertical-align: top; white-space: nowrap; }
th { background: #f9fafb; font-weight: 600; font-size: 12px; color: var(--neutral); }
tbody th, td:first-child, th:first-child { text-align: left; }
tbody th { background: white; }
.arm-table th { white-space: normal; }
.arm-table tbody th { white-space: nowrap; }
.arm-table .strong { font-weight: 700; }
.arm-table .ci { font-size: 11px; color: var(--muted); font-weight: 400; }
.arm-letter { display: inline-block; min-width: 22px; padding: 0 5px; border-radius: 4px; color: white; font-weight: 700; text-align: center; margin-right: 4px; }
.variant-baseline .arm-letter { background: var(--base); } .variant-candidate .arm-letter { background: var(--cand); }
.warn { color: var(--warn); }
.reg-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 10px; }
.reg-block { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.reg-block.bad { border-color: #fca5a5; background: var(--bad-bg); }
.reg-block p { margin: 0 0 6px; }
.case-links { list-style: none; padding: 0; margin: 0; max-height: 180px; overflow: auto; font-size: 12px; columns: 2; }
.finding { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-bottom: 6px; }
.finding.flagged { border-left: 5px solid var(--warn); }
.finding.clear .finding-state { color: var(--good); } .finding.flagged .finding-state { color: var(--warn); font-weight: 700; }
.finding-action { color: var(--neutral); font-size: 13px; margin-top: 2px; }
.finding.na { opacity: .7; }
.evidence { display: flex; flex-wrap: wrap; gap: 2px 0; margin: 4px 0 0; font-size: 12px; color: var(--muted); }
.evidence dt { margin-right: 4px; } .evidence dt::after { content: ":"; } .evidence dd { margin: 0 14px 0 0; color: var(--neutral); }
.controls { display: flex; gap: 14px; flex-wrap: wrap; align-items: center; margin: 8px 0; font-size: 13px; }
.controls select, .controls input { font: inherit; padding: 4px 6px; border: 1px solid #d1d5db; border-radius: 6px; background: white; }
.controls .search input { width: 260px; }
.case-table td { white-space: nowrap; }
.case-table .txt { text-align: left; }
.case-table td.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.case-row { cursor: pointer; } .case-row:hover, .case-row.open { background: #f1f5f9; }
.arm-col { text-align: center; } th.arm-col.candidate { color: var(--cand); } th.arm-col.baseline { color: var(--base); }
.cell { display: inline-flex; gap: 6px; align-items: center; }
.badge { display: inline-block; min-width: 22px; border-radius: 4px; padding: 0 5px; font-weight: 700; font-size: 12px; }
.badge.pass { background: #dcfce7; color: var(--good); } .badge.fail { background: #fee2e2; color: var(--bad); }
.tok { color: var(--muted); font-size: 11px; min-width: 40px; text-align: right; }
.flag { display: inline-block; font-size: 10px; font-weight: 800; color: white; background: var(--warn); border-radius: 3px; padding: 0 3px; }
.detail-row td { background: #f8fafc; white-space: normal; text-align: left; }
.detail .label { font-size: 11px; color: var(--muted); text-transform: uppercase; margin-top: 4px; }
.text { white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 2px 0 6px; background: white; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; max-height: 320px; overflow: auto; }
.arm-outputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 8px; margin-top: 6px; }
.arm-card { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; border-top: 3px solid var(--base); }
.arm-card.candidate { border-top-color: var(--cand); }
.arm-card-head { font-size: 12px; font-weight: 600; margin-bottom: 4px; }
.output-meta { font-size: 11px; color: var(--muted); }
.output.pass .output-meta { color: var(--good); } .output.fail .output-meta { color: var(--bad); }
.note { font-size: 11px; color: var(--muted); }
.note.error { color: var(--bad); }
.pager { margin: 8px 0; display: flex; gap: 10px; align-items: center; font-size: 13px; }
.pager button { font: inherit; padding: 4px 10px; border: 1px solid #d1d5db; border-radius: 6px; background: white; cursor: pointer; }
.pager button:disabled { opacity: .4; cursor: default; }
.meta { font-size: 12px; color: var(--muted); margin-top: 36px; border-top: 1px solid var(--line); padding-top: 10px; }
.meta dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
.meta dt { font-weight: 600; } .meta dd { margin: 0; word-break: break-all; }
@media (max-width: 900px) { .charts, .checks-and-notes, .figures { grid-template-columns: 1fr; } }
@media print {
  body { background: white; font-size: 11px; }
  main { max-width: none; padding: 0; }
  .controls, .pager, noscript { display: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .figures { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .checks-and-notes { grid-template-columns: 1fr 1fr; }
  .charts { grid-template-columns: 1fr; }
  .chart, .figure, .reg-block, .verdict, table { break-inside: avoid; }
  .table-wrap { overflow: visible; border: none; }
  h2 { break-after: avoid; }
  .text { max-height: none; }
}
`;
