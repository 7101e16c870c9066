/**
 * Per-category same-budget deltas (B−A) with CIs: regressions hidden by the mean.
 * With k categories each interval is at confidence 1 − α/k (Bonferroni), so "some category
 * is significantly worse" keeps a family-wise error rate of α instead of growing with k.
 * A category counts as worse only when its CI is below 0 AND, for 0/1 outcomes, the exact
 * McNemar test agrees at the same level: the bootstrap alone is overconfident on the
 * handful of cases a small category has.
 */
import type { ArmCases } from './case-table.js';
import { comparePasses, significantlyWorse, type BootstrapSettings, type Estimate } from './compare.js';

export interface CategoryDelta {
  category: string;
  cases: number;
  baselinePass: number;
  candidatePass: number;
  delta: Estimate;
  mcnemarP: number | undefined;
  /** Confidence of this interval after the Bonferroni adjustment. */
  confidence: number;
  worse: boolean;
}

export function categoryDeltas(baseline: ArmCases, candidate: ArmCases, settings: BootstrapSettings): CategoryDelta[] {
  const byCategory = new Map<string, string[]>();
  for (const [id, row] of baseline) {
    if (row.category === undefined || !candidate.has(id)) continue;
    const ids = byCategory.get(row.category);
    if (ids) ids.push(id);
    else byCategory.set(row.category, [id]);
  }
  if (byCategory.size < 2) return [];
  const alpha = (1 - settings.confidence) / byCategory.size;
  const adjusted = { ...settings, confidence: 1 - alpha };
  const subset = (cases: ArmCases, ids: string[]): ArmCases => new Map(ids.flatMap((id) => { const c = cases.get(id); return c === undefined ? [] : [[id, c] as const]; }));
  const deltas: CategoryDelta[] = [];
  for (const [category, ids] of [...byCategory.entries()].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const comparison = comparePasses(subset(baseline, ids), subset(candidate, ids), ['baseline', 'candidate'], adjusted);
    if (!comparison) continue;
    deltas.push({
      category,
      cases: comparison.cases,
      baselinePass: comparison.baselinePass,
      candidatePass: comparison.candidatePass,
      delta: comparison.delta,
      mcnemarP: comparison.mcnemarP,
      confidence: adjusted.confidence,
      worse: significantlyWorse(comparison, alpha),
    });
  }
  return deltas;
}
