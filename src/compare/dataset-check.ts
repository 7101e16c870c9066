/**
 * Whether two runs ran the same cases (invariant 5): the split and every dataset hash their
 * manifests recorded must match. Pure.
 */
import type { Manifest } from '../ledger/manifest.js';

export interface DatasetDifference {
  name: string;
  a: string | undefined;
  b: string | undefined;
}

export interface DatasetCheck {
  same: boolean;
  differences: DatasetDifference[];
}

export function checkDatasets(a: Manifest, b: Manifest): DatasetCheck {
  const differences: DatasetDifference[] = [];
  if (a.split !== b.split) differences.push({ name: 'split', a: a.split, b: b.split });
  // The evaluated split and the regression set decide which cases are compared; train does not.
  for (const name of new Set([a.split, b.split, 'regression'])) {
    const x = a.datasets[name]?.sha256;
    const y = b.datasets[name]?.sha256;
    if (x !== y) differences.push({ name, a: x, b: y });
  }
  return { same: differences.length === 0, differences };
}
