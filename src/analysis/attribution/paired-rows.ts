/** Per-case pairs of the n=1 arms' first path (epoch 0), the unit the length detector reads. */
import type { PathOutcome, ResultRecord } from '../../ledger/records.js';

export interface PathPair {
  caseId: string;
  baseline: PathOutcome;
  candidate: PathOutcome;
}

export function singlePathPairs(results: readonly ResultRecord[]): PathPair[] {
  const baseline = new Map<string, PathOutcome>();
  const candidate = new Map<string, PathOutcome>();
  for (const r of results) {
    if (r.n !== 1 || r.epoch !== 0 || r.split === 'regression') continue;
    const path = r.paths[0];
    if (!path) continue;
    (r.variant === 'baseline' ? baseline : candidate).set(r.case_id, path);
  }
  const pairs: PathPair[] = [];
  for (const [caseId, b] of baseline) {
    const c = candidate.get(caseId);
    if (c) pairs.push({ caseId, baseline: b, candidate: c });
  }
  return pairs.sort((x, y) => (x.caseId < y.caseId ? -1 : 1));
}
