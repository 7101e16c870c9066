/** Text views of memory for the terminal: search results, one record's history, conflicts. Pure. */
import type { Conflict } from './conflicts.js';
import type { MemoryRecord } from './record.js';
import type { Retrieved } from './retrieval.js';
import type { StoredVersion } from './store/spec.js';

const signed = (value: number | null): string => (value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`);

export function provenanceLine(r: MemoryRecord): string {
  return `run ${r.source_run}, ${r.base_url}, model ${r.model}, B=${r.budget}, n=${r.n}, verdict ${r.verdict}`;
}

function headline(r: MemoryRecord): string {
  if (r.type === 'negative_pattern') return `${r.subject}: ${r.pattern ?? ''}`;
  if (r.skill) return `${r.subject}: skill ${r.skill.name} (version ${r.skill.version})${r.skill.description ? ` — ${r.skill.description}` : ''}`;
  return `${r.subject}: ${r.title ?? r.pattern ?? r.reason ?? ''}`;
}

export function renderSearch(results: readonly Retrieved[]): string {
  if (results.length === 0) return 'no matching active memory\n';
  const lines: string[] = [];
  for (const { record, weight, negative } of results) {
    const status = record.status === 'active' ? '' : ` [${record.status}]`;
    lines.push(`${negative ? 'NEGATIVE ' : '         '} ${record.memory_id}  ${record.type}  weight ${weight.toFixed(2)}${status}  ${headline(record)}`);
    if (negative && record.reason) lines.push(`           do not chase: ${record.reason}`);
    if (!negative && record.same_budget_delta !== null) lines.push(`           same-budget n=1 delta ${signed(record.same_budget_delta)}, tokens/success ${signed(record.tokens_per_success_delta)}`);
    lines.push(`           ${provenanceLine(record)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderRecord(record: MemoryRecord, versions: readonly StoredVersion[], options: { diff: boolean; weight: number }): string {
  const lines = [
    `${record.memory_id}  ${record.type}  v${record.version}  ${record.status}${record.status_reason ? ` (${record.status_reason})` : ''}  weight ${options.weight.toFixed(2)} (stored ${record.weight.toFixed(2)} at ${record.weight_at})`,
    `  ${headline(record)}`,
    `  provenance: ${provenanceLine(record)}; source ${record.source}`,
  ];
  if (record.same_budget_delta !== null) lines.push(`  same-budget n=1 delta ${signed(record.same_budget_delta)}${record.same_budget_ci95 ? ` CI [${signed(record.same_budget_ci95[0])}, ${signed(record.same_budget_ci95[1])}]` : ''}, Best-of-N off delta ${signed(record.bestofn_off_delta)}, tokens/success ${signed(record.tokens_per_success_delta)}${record.bestofn_ratio === null ? '' : `, bestofn_ratio ${record.bestofn_ratio.toFixed(2)}`}`);
  if (record.reason) lines.push(`  reason: ${record.reason}`);
  lines.push(`  runs: ${record.run_ids.join(', ')}`);
  for (const e of record.evidence) lines.push(`  evidence ${e.at}: ${e.run_id} (${e.split}, ${e.verdict}, delta ${signed(e.same_budget_delta)}) ${e.effect}`);
  for (const a of record.approvals) lines.push(`  approved by ${a.reviewer} at ${a.at}${a.note ? `: ${a.note}` : ''}${a.review_id ? ` (${a.review_id})` : ''}`);
  lines.push('  versions:');
  for (const v of versions) {
    lines.push(`    v${v.record.version}  ${v.created_at}  ${v.record.type}/${v.record.status}  ${v.record.changelog}`);
    if (options.diff && v.diff) lines.push(...v.diff.trimEnd().split('\n').map((line) => `      ${line}`));
  }
  return `${lines.join('\n')}\n`;
}

export function renderConflicts(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 0) return 'no conflicts\n';
  const lines = [`${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'} for a human to resolve (same subject, opposite verdicts):`];
  const item = (r: MemoryRecord): string => `${r.memory_id} (${r.type}, ${r.status}, verdict ${r.verdict}, run ${r.source_run})`;
  for (const c of conflicts) {
    lines.push(`  ${c.subject}`);
    lines.push(`    says it works:      ${c.positive.map(item).join('; ')}`);
    lines.push(`    says it does not:   ${c.negative.map(item).join('; ')}`);
  }
  lines.push('  resolve with `isobudget memory retire ID --note …` on the one that is wrong, or new same-budget evidence (`memory ingest`)');
  return `${lines.join('\n')}\n`;
}
