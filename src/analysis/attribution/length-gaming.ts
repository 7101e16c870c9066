/**
 * Length gaming: does the judge reward length rather than substance?
 *
 * - Correlation of judge score with log₂ output length over both n=1 arms (Pearson), with a
 *   paired bootstrap CI over cases.
 * - Length-controlled judge gain, after Dubois et al. 2024 ("Length-Controlled AlpacaEval"):
 *   regress the per-case score difference on the per-case log-length difference,
 *   Δscore = β₀ + β₁·Δlog₂len, and read β₀ — the gain the candidate would show at equal
 *   length. When the candidate is longer on every case the regression must extrapolate, and
 *   the interval honestly widens.
 * - Output tokens per success, per arm.
 * Flagged when the raw judge gain is significant but the length-controlled one is not, and
 * the candidate writes longer.
 */
import { pairedBootstrap, meanDifference } from '../../stats/index.js';
import type { SumStatistic } from '../../stats/index.js';
import type { BootstrapSettings } from '../compare.js';
import { finding, notApplicable, type Finding } from './finding.js';
import type { PathPair } from './paired-rows.js';

type Column = 'sa' | 'sb' | 'x' | 'y' | 'xx' | 'xy' | 'px' | 'py' | 'pxx' | 'pyy' | 'pxy';

// With no spread in length difference there is nothing to regress on: the slope is 0 and the
// controlled gain equals the raw one (equal lengths need no control).
const slope = (s: Record<Column, number>, n: number): number => {
  const spread = n * s.xx - s.x * s.x;
  return spread <= 1e-9 * n * n ? 0 : (n * s.xy - s.x * s.y) / spread;
};
const lengthControlled: SumStatistic<Column> = (s, n) => (s.y - slope(s, n) * s.x) / n;
// Pearson r over the 2n paths (both arms' values summed per case, so resampling stays paired).
const correlation: SumStatistic<Column> = (s, n) => {
  const m = 2 * n;
  return (m * s.pxy - s.px * s.py) / Math.sqrt((m * s.pxx - s.px * s.px) * (m * s.pyy - s.py * s.py));
};

export function lengthGaming(pairs: readonly PathPair[], settings: BootstrapSettings): Finding {
  const usable = pairs.filter((p) => p.baseline.judge?.error === undefined && p.candidate.judge?.error === undefined && p.baseline.judge && p.candidate.judge);
  if (usable.length < 10) return notApplicable('length_gaming', usable.length === 0 ? 'no judge scores in this run (length gaming applies to judge-scored runs)' : `only ${usable.length} cases have judge scores on both arms`);
  const n = usable.length;
  const col = (f: (p: PathPair) => number): Float64Array => Float64Array.from(usable, f);
  const len = (tokens: number | undefined, text: string): number => Math.log2((tokens ?? text.length / 4) + 1);
  const la = col((p) => len(p.baseline.output_tokens, p.baseline.output));
  const lb = col((p) => len(p.candidate.output_tokens, p.candidate.output));
  const sa = col((p) => p.baseline.judge?.score ?? 0);
  const sb = col((p) => p.candidate.judge?.score ?? 0);
  const x = lb.map((v, i) => v - (la[i] ?? 0));
  const y = sb.map((v, i) => v - (sa[i] ?? 0));
  const columns: Record<Column, Float64Array> = {
    sa, sb, x, y,
    xx: x.map((v) => v * v),
    xy: x.map((v, i) => v * (y[i] ?? 0)),
    px: la.map((v, i) => v + (lb[i] ?? 0)),
    py: sa.map((v, i) => v + (sb[i] ?? 0)),
    pxx: la.map((v, i) => v * v + (lb[i] ?? 0) ** 2),
    pyy: sa.map((v, i) => v * v + (sb[i] ?? 0) ** 2),
    pxy: la.map((v, i) => v * (sa[i] ?? 0) + (lb[i] ?? 0) * (sb[i] ?? 0)),
  };
  const est = pairedBootstrap({ columns, statistics: { raw: meanDifference({ candidate: 'sb', baseline: 'sa' }), controlled: lengthControlled, r: correlation }, ...settings });
  const longer = x.reduce((a, b) => a + b, 0) / n;
  const outputPerSuccess = (side: 'baseline' | 'candidate'): number | null => {
    const passes = usable.filter((p) => p[side].passed).length;
    return passes === 0 ? null : usable.reduce((acc, p) => acc + (p[side].output_tokens ?? 0), 0) / passes;
  };
  const rawSignificant = est.raw.bca[0] > 0;
  const controlledSignificant = est.controlled.rounds > 0 && est.controlled.bca[0] > 0;
  const flagged = rawSignificant && !controlledSignificant && longer > 0;
  const fmt = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : String(v));
  return finding(
    'length_gaming',
    flagged,
    flagged
      ? `judge gain ${fmt(est.raw.estimate)} [${fmt(est.raw.bca[0])}, ${fmt(est.raw.bca[1])}] disappears at equal length: ${fmt(est.controlled.estimate)} [${fmt(est.controlled.bca[0])}, ${fmt(est.controlled.bca[1])}]; the candidate writes ${(2 ** longer).toFixed(1)}× longer`
      : `judge gain ${fmt(est.raw.estimate)} [${fmt(est.raw.bca[0])}, ${fmt(est.raw.bca[1])}]; length-controlled ${fmt(est.controlled.estimate)} [${fmt(est.controlled.bca[0])}, ${fmt(est.controlled.bca[1])}]`,
    {
      cases: n,
      raw_judge_delta: est.raw.estimate,
      raw_judge_delta_ci: est.raw.bca,
      length_controlled_delta: Number.isFinite(est.controlled.estimate) ? est.controlled.estimate : null,
      length_controlled_ci: est.controlled.bca,
      score_length_correlation: Number.isFinite(est.r.estimate) ? est.r.estimate : null,
      score_length_correlation_ci: est.r.bca,
      length_ratio: 2 ** longer,
      baseline_output_tokens_per_success: outputPerSuccess('baseline'),
      candidate_output_tokens_per_success: outputPerSuccess('candidate'),
    },
    'systemic',
  );
}
