/** Regressions hidden by the mean: a category significantly worse while the total looks flat or better. */
import type { Analysis } from '../analyze-run.js';
import { finding, notApplicable, type Finding } from './finding.js';

export function hiddenRegression(analysis: Analysis): Finding {
  if (analysis.categories.length === 0) return notApplicable('hidden_regression', 'cases carry fewer than two categories');
  const worse = analysis.categories.filter((c) => c.worse);
  const total = analysis.sameBudget.passes?.delta;
  const flat = total !== undefined && total.ci[1] >= 0;
  const pct = (v: number): string => `${(v * 100).toFixed(1)} pts`;
  return finding(
    'hidden_regression',
    worse.length > 0,
    worse.length === 0
      ? `${analysis.categories.length} categories, none significantly worse`
      : `${worse.map((c) => `${c.category} ${pct(c.delta.value)}`).join(', ')} significantly worse while the total moves ${total ? pct(total.value) : '?'}${flat ? ' (not significantly down)' : ''}`,
    { categories: analysis.categories.length, worse: worse.map((c) => c.category).join(', '), total_delta: total?.value ?? null },
    'regression',
  );
}
