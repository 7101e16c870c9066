/**
 * pass@N posing as pass@1: how far pass@N sits above pass@1 for each variant, and whether
 * the claimed gain lives at n=1 (a capability) or only at n=N (sampling budget).
 */
import type { Analysis } from '../analyze-run.js';
import { finding, notApplicable, type Finding } from './finding.js';

export function bestOfNPosing(analysis: Analysis): Finding {
  const single = analysis.sameBudget.passes;
  const largest = analysis.bestOfN.at(-1);
  if (!single || !largest) return notApplicable('bestofn_posing', 'needs both an n=1 and an n=N comparison');
  const candidate1 = analysis.arms.find((a) => a.variant === 'candidate' && a.n === 1);
  const candidateN = analysis.arms.find((a) => a.variant === 'candidate' && a.n === largest.n);
  const atOne = single.delta.ci[0] > 0;
  const atN = largest.selected.delta.ci[0] > 0;
  const lives = atOne ? 'n=1' : atN ? `n=${largest.n} only` : 'nowhere';
  const gap = (candidateN?.passAtN ?? 0) - (candidate1?.passAt1 ?? 0);
  const pct = (v: number): string => `${(v * 100).toFixed(1)} pts`;
  return finding(
    'bestofn_posing',
    !atOne && atN,
    `the gain lives ${lives}: n=1 delta ${pct(single.delta.value)}, selected@${largest.n} delta ${pct(largest.selected.delta.value)}; candidate pass@${largest.n} − pass@1 = ${pct(gap)}`,
    {
      n: largest.n,
      n1_delta: single.delta.value,
      n1_delta_ci: single.delta.ci,
      nN_delta: largest.selected.delta.value,
      nN_delta_ci: largest.selected.delta.ci,
      candidate_pass_at_1: candidate1?.passAt1 ?? null,
      candidate_pass_at_n: candidateN?.passAtN ?? null,
      pass_at_n_minus_pass_at_1: gap,
      gain_lives: lives,
    },
    'leakage',
  );
}
