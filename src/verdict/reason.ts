/** The short human reason of a verdict, pure. Numbers first; the words say what to do. */
import type { VerdictRecord } from './record.js';

const REGRESSION_CHECKS = new Set(['regression_set', 'categories', 'overall_not_worse']);

/** Every named check ran and passed. */
function passed(record: VerdictRecord, names: readonly string[]): boolean {
  return names.every((name) => record.checks.find((c) => c.name === name)?.passed === true);
}

export function explain(record: VerdictRecord): string {
  const sb = record.same_budget;
  const on = record.bestofn_on;
  const gates = record.gates;
  const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
  const rate = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  const ci = (i: readonly [number, number] | null): string => (i ? `[${pct(i[0])}, ${pct(i[1])}]` : '[CI n/a]');
  // Without a known B the arms are not known to share one: the claim is pass@1, not "same-budget".
  const n1Label = sb?.budget === null ? 'pass@1 (B unknown)' : 'same-budget pass@1';
  const n1 = sb ? `${n1Label} ${pct(sb.delta)} ${ci(sb.ci95)}` : 'no same-budget comparison';
  const tpsGrowth = sb?.tokens_per_success_growth ?? null;
  const tps = tpsGrowth === null ? 'tokens/success unknown' : `tokens/success ×${tpsGrowth.toFixed(2)}`;
  const atN = on ? `selected@${on.n} ${pct(on.delta)} ${ci(on.ci95)}` : 'no Best-of-N arm';
  const failed = record.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
  const cases = record.power?.cases_for_80_power;
  switch (record.verdict) {
    case 'invalid':
      return `invalid: an invariant broke — ${failed.join('; ')}. Fix the run before reading any number.`;
    case 'regression': {
      // Only what regressed: the gain checks that fail alongside a collapse add nothing.
      const regressed = record.checks.filter((c) => !c.passed && REGRESSION_CHECKS.has(c.name)).map((c) => `${c.name}: ${c.detail}`);
      return `regression: ${(regressed.length ? regressed : failed).join('; ')}. Roll back; do not promote.`;
    }
    case 'real_evolution':
      // "Best-of-N off" is n=1: quote the n=1 numbers there, and the n=N ones as what they are.
      return `real evolution: ${n1}, ${tps}, p95 latency ×${sb?.p95_latency_ratio?.toFixed(2) ?? '?'}; it holds with Best-of-N off (n=1: pass@1 ${sb ? `${rate(sb.baseline_pass)} → ${rate(sb.candidate_pass)}, ${pct(sb.delta)} ${ci(sb.ci95)}` : 'n/a'})${on ? `; with Best-of-${on.n} on, ${atN}` : ''}.`;
    case 'budget_growth':
      return `budget growth: ${n1} is real but bought with spend — ${failed.join('; ')}.`;
    case 'budget_leakage':
      return `budget leakage: only multi-path sampling gains (${atN}, pass@${on?.n ?? 'N'} ${on ? `${rate(on.baseline_pass_at_n)} → ${rate(on.candidate_pass_at_n)}` : ''}); ${n1} — no single-path gain at the same budget. Record as a Best-of-N-only negative pattern.`;
    case 'inconclusive':
      if (record.checks.some((c) => c.name === 'budget_known' && !c.passed)) {
        return `inconclusive: ${n1} with ${tps}, but B is unknown — the ledger states no budget, so nothing shows the arms spent the same; give --budget B (every unit is then checked against it).`;
      }
      if (sb && sb.ci95 === null) {
        return `inconclusive: too few cases — ${n1} on ${sb.cases} case${sb.cases === 1 ? '' : 's'} has no interval; ${cases ? `about ${cases} cases would give 80% power to detect the minimum gain of ${pct(gates.min_same_budget_gain)}` : 'more cases are needed'}.`;
      }
      if (sb && passed(record, ['same_budget_gain', 'ci_excludes_zero', 'mcnemar_agrees', 'no_length_gaming'])) {
        const gate = record.checks.find((c) => c.name === 'tokens_per_success');
        return `inconclusive: ${n1} is a real gain, but the tokens_per_success interval holds the gate of ×${gates.max_token_growth_ratio.toFixed(2)} (${gate?.detail ?? tps}); more cases narrow it — do not promote yet.`;
      }
      if (sb && sb.delta < gates.min_same_budget_gain) {
        return `inconclusive: ${n1} is below the minimum gain of ${pct(gates.min_same_budget_gain)}, but its interval still holds it; ${cases ? `about ${cases} cases would give 80% power to detect the minimum gain (now ${record.power?.cases_now ?? '?'})` : 'more cases are needed'}.`;
      }
      return `inconclusive: ${n1} reaches the minimum gain but ${passed(record, ['ci_excludes_zero']) ? 'the exact McNemar test does not agree' : 'its interval crosses 0'}; ${cases ? `about ${cases} cases would give 80% power at this effect (now ${record.power?.cases_now ?? '?'})` : 'more cases are needed'}.`;
    case 'no_gain': {
      if (sb && sb.delta >= gates.min_same_budget_gain) {
        return `no gain: ${n1} does not hold up — ${failed.join('; ')}; ${atN}.`;
      }
      if (sb && sb.ci95 !== null && sb.ci95[0] > 0) {
        // A real but small gain: say so, and what it cost, rather than a bare "no gain".
        const spend = [
          tpsGrowth !== null && tpsGrowth > gates.max_token_growth_ratio ? ` and tokens_per_success ×${tpsGrowth.toFixed(2)} (max ×${gates.max_token_growth_ratio.toFixed(2)})` : '',
          sb.p95_latency_ratio !== null && sb.p95_latency_ratio > gates.max_latency_growth_ratio ? ` and p95 latency ×${sb.p95_latency_ratio.toFixed(2)} (max ×${gates.max_latency_growth_ratio.toFixed(2)})` : '',
        ].join('');
        return `no gain: gain below the minimum (${pct(sb.delta)}, CI above 0)${spend}; the minimum is ${pct(gates.min_same_budget_gain)}; ${atN}.`;
      }
      return `no gain: ${n1} is below the minimum of ${pct(gates.min_same_budget_gain)}; ${atN}.`;
    }
  }
}
