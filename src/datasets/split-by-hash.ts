/**
 * Deterministic train/val/test assignment: a case's split is a function of its key alone
 * (sha256 → a point in [0, 1)), so re-splitting the same file, or the same file with rows
 * added or reordered, never moves a case from one split to another. Pure.
 */
import { sha256 } from '../core/hash.js';
import type { SplitName } from '../config/types.js';

export interface SplitShares {
  train: number;
  val: number;
  test: number;
}

/** What `isobudget init` uses: most cases to diagnose on, the rest halved between screening and the gate. */
export const INIT_SHARES: SplitShares = { train: 0.4, val: 0.3, test: 0.3 };

/** The point in [0, 1) a key hashes to (the first 48 bits of its sha256). */
export function hashPoint(key: string): number {
  return Number.parseInt(sha256(key).slice(0, 12), 16) / 2 ** 48;
}

/** The split a key falls in under `shares` (which must sum to 1). */
export function splitOfKey(key: string, shares: SplitShares): SplitName {
  const point = hashPoint(key);
  if (point < shares.train) return 'train';
  return point < shares.train + shares.val ? 'val' : 'test';
}

/** Items grouped by split, each split in the items' original order. */
export function splitByHash<T>(items: readonly T[], keyOf: (item: T) => string, shares: SplitShares = INIT_SHARES): Record<SplitName, T[]> {
  const out: Record<SplitName, T[]> = { train: [], val: [], test: [] };
  for (const item of items) out[splitOfKey(keyOf(item), shares)].push(item);
  return out;
}
