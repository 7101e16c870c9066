/** `isobudget compare` as terminal text, pure. */
import { count, pct, pts, ptsInterval, ratio, ratioInterval } from '../report/html/format.js';
import type { ArmMove, RunComparison } from './compare-runs.js';

const FLIP_LIST = 12;

export function renderComparison(c: RunComparison): string {
  const lines: string[] = [];
  const side = (label: string, s: RunComparison['a']): string => `${label}: ${s.runId} (${s.verdict.experiment}, ${s.verdict.candidate_id} vs ${s.verdict.baseline_id}) — ${s.verdict.verdict}`;
  lines.push(side('run A', c.a), side('run B', c.b), '');
  if (c.datasets.same) lines.push('datasets: same cases (split and dataset hashes match)');
  else lines.push(`datasets DIFFER${c.forced ? ' (--force: compared on the cases both runs have)' : ''}: ${c.datasets.differences.map((d) => `${d.name} ${short(d.a)} vs ${short(d.b)}`).join('; ')}`);
  const sa = c.a.verdict.same_budget;
  const sb = c.b.verdict.same_budget;
  lines.push(`verdict: ${c.a.verdict.verdict} → ${c.b.verdict.verdict}`);
  if (sa && sb) lines.push(`same-budget delta (candidate − baseline, n=1): ${pts(sa.delta)} ${ptsInterval(sa.ci95)} → ${pts(sb.delta)} ${ptsInterval(sb.ci95)}`);
  const paired = c.arms.some((m) => m.sharedCases > 0);
  lines.push('', paired ? 'per arm, run B vs run A, paired by case:' : 'per arm, run B vs run A — no case is in both runs, so nothing is paired: only the per-run figures mean anything:', '');
  lines.push(table(c.arms));
  const flips = c.arms.filter((m) => m.nowFailing.length || m.nowPassing.length);
  lines.push('', flips.length ? 'cases that flipped:' : 'no case flipped in any arm.');
  for (const m of flips) {
    if (m.nowFailing.length) lines.push(`  ${m.arm}: now failing (${m.nowFailing.length}): ${list(m.nowFailing)}`);
    if (m.nowPassing.length) lines.push(`  ${m.arm}: now passing (${m.nowPassing.length}): ${list(m.nowPassing)}`);
  }
  if (c.config.length) {
    lines.push('', `settings that changed (${c.config.length}${c.config.length >= 40 ? '+' : ''}):`);
    for (const change of c.config) lines.push(`  ${change.path}: ${change.a} → ${change.b}`);
  } else lines.push('', 'settings: identical normalized configs');
  return `${lines.join('\n')}\n`;
}

function table(arms: readonly ArmMove[]): string {
  const header = ['arm', 'n', 'cases', 'product pass A → B', 'delta', 'CI', 'McNemar p', 'pass@1/path Δ', 'pass@N Δ', 'tokens/case A → B', 'total tokens', 'tokens/success', 'p95 ms A → B', 'now ✓', 'now ✗'];
  const rows = arms.map((m) => {
    const pass = m.pass;
    const delta = (f: (x: NonNullable<ArmMove['a']>) => number | null): string => {
      const [a, b] = m.a && m.b ? [f(m.a), f(m.b)] : [null, null];
      return a === null || b === null ? '—' : pts(b - a);
    };
    return [
      m.arm,
      String(m.n),
      count(m.sharedCases),
      pass ? `${pct(pass.baselinePass)} → ${pct(pass.candidatePass)}` : '—',
      pass ? pts(pass.delta.value) : '—',
      pass ? ptsInterval(pass.delta.ci) : '',
      pass?.mcnemarP === undefined ? '—' : pass.mcnemarP.toPrecision(2),
      delta((x) => x.passAt1),
      m.n > 1 ? delta((x) => x.passAtN) : '—',
      `${count(m.a?.meanTokensPerCase)} → ${count(m.b?.meanTokensPerCase)}`,
      m.tokens ? ratio(m.tokens.totalTokensRatio.value) : '—',
      m.tokens ? `${ratio(m.tokens.tokensPerSuccessRatio.value)} ${ratioInterval(m.tokens.tokensPerSuccessRatio.ci)}` : '—',
      `${count(m.a?.latencyP95Ms)} → ${count(m.b?.latencyP95Ms)}`,
      String(m.nowPassing.length),
      String(m.nowFailing.length),
    ];
  });
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function list(ids: readonly string[]): string {
  return ids.slice(0, FLIP_LIST).join(', ') + (ids.length > FLIP_LIST ? `, … (${ids.length - FLIP_LIST} more)` : '');
}

function short(hash: string | undefined): string {
  return hash === undefined ? '(none)' : hash.length > 12 ? `${hash.slice(0, 12)}…` : hash;
}
