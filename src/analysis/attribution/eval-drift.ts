/**
 * Eval drift: how often this val/test set was already used to select candidates and how old
 * that use is, and how far the category mix of recent production failures sits from the
 * eval set's (total variation distance, ½ Σ |p − q|). Flagged at ≥ 10 prior selections on
 * the same dataset hash or a distance ≥ 0.3.
 */
import { finding, type Finding } from './finding.js';

export interface EvalDriftInput {
  /** Earlier runs on the same split dataset hash. */
  priorRuns: ReadonlyArray<{ runId: string; createdAt: string }>;
  /** Category counts of the evaluated split. */
  evalCategories: Readonly<Record<string, number>>;
  /** Category counts of recent production failures, when a feedback source was given. */
  productionFailures: Readonly<Record<string, number>> | undefined;
  now: Date;
}

export const DRIFT_MAX_USES = 10;
export const DRIFT_MAX_DISTANCE = 0.3;

export function totalVariationDistance(p: Readonly<Record<string, number>>, q: Readonly<Record<string, number>>): number {
  const sum = (r: Readonly<Record<string, number>>): number => Object.values(r).reduce((a, b) => a + b, 0);
  const sp = sum(p);
  const sq = sum(q);
  if (sp === 0 || sq === 0) return 0;
  let distance = 0;
  for (const key of new Set([...Object.keys(p), ...Object.keys(q)])) distance += Math.abs((p[key] ?? 0) / sp - (q[key] ?? 0) / sq);
  return distance / 2;
}

export function evalDrift(input: EvalDriftInput): Finding {
  const uses = input.priorRuns.length;
  const oldest = input.priorRuns.reduce<number | undefined>((min, r) => {
    const t = Date.parse(r.createdAt);
    return Number.isNaN(t) ? min : Math.min(min ?? t, t);
  }, undefined);
  const ageDays = oldest === undefined ? null : Math.floor((input.now.getTime() - oldest) / 86_400_000);
  const distance = input.productionFailures ? totalVariationDistance(input.evalCategories, input.productionFailures) : null;
  const flagged = uses >= DRIFT_MAX_USES || (distance !== null && distance >= DRIFT_MAX_DISTANCE);
  return finding(
    'eval_drift',
    flagged,
    `this split was used to select ${uses} time(s) before${ageDays === null ? '' : `, first ${ageDays} days ago`}${distance === null ? '; no production feedback given' : `; production failures vs eval categories: distance ${distance.toFixed(2)}`}`,
    { prior_selections: uses, oldest_use_days: ageDays, category_distance: distance },
    'eval_drift',
  );
}
