/** The short human reason of a verdict, pure. Numbers first; the words say what to do. */
import type { VerdictRecord } from './record.js';

export function explain(record: VerdictRecord): string {
  const sb = record.same_budget;
  const on = record.bestofn_on;
  const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
  const ci = (i: readonly [number, number] | null): string => (i ? `[${pct(i[0])}, ${pct(i[1])}]` : '[unknown]');
  const n1 = sb ? `same-budget pass@1 ${pct(sb.delta)} ${ci(sb.ci95)}` : 'no same-budget comparison';
  const tps = sb?.tokens_per_success_growth == null ? 'tokens/success unknown' : `tokens/success ×${sb.tokens_per_success_growth.toFixed(2)}`;
  const atN = on ? `selected@${on.n} ${pct(on.delta)} ${ci(on.ci95)}` : 'no Best-of-N arm';
  const failed = record.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
  switch (record.verdict) {
    case 'invalid':
      return `invalid: an invariant broke — ${failed.join('; ')}. Fix the run before reading any number.`;
    case 'regression':
      return `regression: ${failed.join('; ')}. Roll back; do not promote.`;
    case 'real_evolution':
      return `real evolution: ${n1}, ${tps}, p95 latency ×${sb?.p95_latency_ratio?.toFixed(2) ?? '?'}; it holds with Best-of-N off (${atN}).`;
    case 'budget_growth':
      return `budget growth: ${n1} is real but bought with spend — ${failed.join('; ')}.`;
    case 'budget_leakage':
      return `budget leakage: only multi-path sampling gains (${atN}, pass@${on?.n ?? 'N'} ${on ? `${(on.baseline_pass_at_n * 100).toFixed(1)}% → ${(on.candidate_pass_at_n * 100).toFixed(1)}%` : ''}); ${n1} — no single-path gain at the same budget. Record as a Best-of-N-only negative pattern.`;
    case 'inconclusive':
      return `inconclusive: ${n1} reaches the minimum gain but its interval crosses 0; ${record.power?.cases_for_80_power ? `about ${record.power.cases_for_80_power} cases would give 80% power at this effect (now ${record.power.cases_now})` : 'more cases are needed'}.`;
    case 'no_gain':
      if (sb && sb.delta >= record.gates.min_same_budget_gain) {
        return `no gain: ${n1} does not hold up — ${failed.join('; ')}; ${atN}.`;
      }
      return `no gain: ${n1} is below the minimum of ${pct(record.gates.min_same_budget_gain)}; ${atN}.`;
  }
}
