/**
 * Which cases of a split a partial run takes, pure: `--limit N` (the first N in the file's
 * order), `--cases ID,ID…` (those ids, in the file's order; an unknown id is an error with a
 * did-you-mean), or `--sample N --seed S` (a random subset stratified by category: each
 * category keeps its share of N, by largest remainder, drawn with a seeded xoshiro128**).
 * Regression cases are never subset: they guard pass@1 whatever the run's size.
 */
import { didYouMean } from '../config/did-you-mean.js';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { createRng } from '../stats/rng.js';

export type CaseSelection =
  | { kind: 'limit'; limit: number }
  | { kind: 'cases'; ids: string[] }
  | { kind: 'sample'; size: number; seed: number };

/** Recorded in the manifest: what was asked and how many of how many cases it took. */
export interface PartialRecord {
  /** The selection as the flags gave it: `--limit 5`, `--cases a,b`, `--sample 20 --seed 7`. */
  selection: string;
  /** Cases the run takes (cases). */
  cases: number;
  /** Cases in the split (cases). */
  of: number;
}

/** The inputs with only the selected cases of the split, marked partial; unchanged without a selection. */
export function withCaseSelection<T extends { cases: EvalCase[]; partial?: PartialRecord }>(inputs: T, selection: CaseSelection | undefined): T {
  if (selection === undefined) return inputs;
  const cases = selectCases(inputs.cases, selection);
  return { ...inputs, cases, partial: { selection: describeSelection(selection), cases: cases.length, of: inputs.cases.length } };
}

export function describeSelection(selection: CaseSelection): string {
  switch (selection.kind) {
    case 'limit': return `--limit ${selection.limit}`;
    case 'cases': return `--cases ${selection.ids.join(',')}`;
    case 'sample': return `--sample ${selection.size} --seed ${selection.seed}`;
  }
}

export function selectCases(cases: readonly EvalCase[], selection: CaseSelection): EvalCase[] {
  switch (selection.kind) {
    case 'limit': return cases.slice(0, selection.limit);
    case 'cases': return byIds(cases, selection.ids);
    case 'sample': return stratifiedSample(cases, selection.size, selection.seed);
  }
}

function byIds(cases: readonly EvalCase[], ids: readonly string[]): EvalCase[] {
  const known = new Set(cases.map((c) => c.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const first = unknown[0] ?? '';
    const suggestion = didYouMean(first, [...known]);
    throw new IsobudgetError('usage', `--cases: no case ${unknown.map((id) => `'${id}'`).join(', ')} in the split`, {
      hint: suggestion === undefined ? 'ids are the `id` field of the dataset\'s rows (`isobudget datasets` lists them)' : `did you mean '${suggestion}'?`,
    });
  }
  const wanted = new Set(ids);
  return cases.filter((c) => wanted.has(c.id));
}

function stratifiedSample(cases: readonly EvalCase[], size: number, seed: number): EvalCase[] {
  if (size >= cases.length) return [...cases];
  const strata = new Map<string, number[]>();
  cases.forEach((c, index) => {
    const key = c.category ?? '';
    strata.set(key, [...(strata.get(key) ?? []), index]);
  });
  // Largest remainder: each stratum gets ⌊share⌋, the leftover goes to the largest fractions
  // (ties by category name, so the split is the same on every machine).
  const keys = [...strata.keys()].sort();
  const quota = new Map(keys.map((key) => [key, Math.floor((size * (strata.get(key)?.length ?? 0)) / cases.length)]));
  let left = size - [...quota.values()].reduce((a, b) => a + b, 0);
  const byRemainder = [...keys].sort((a, b) => fraction(b) - fraction(a) || (a < b ? -1 : 1));
  function fraction(key: string): number {
    const exact = (size * (strata.get(key)?.length ?? 0)) / cases.length;
    return exact - Math.floor(exact);
  }
  for (const key of byRemainder) {
    if (left === 0) break;
    quota.set(key, (quota.get(key) ?? 0) + 1);
    left -= 1;
  }
  const rng = createRng(seed);
  const chosen = new Set<number>();
  for (const key of keys) {
    const pool = [...(strata.get(key) ?? [])];
    // Partial Fisher–Yates: the first `quota` of a seeded shuffle.
    const take = Math.min(quota.get(key) ?? 0, pool.length);
    for (let i = 0; i < take; i += 1) {
      const j = i + rng.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
      chosen.add(pool[i] as number);
    }
  }
  // The file's order, so a sample is a subset run in the same order as the whole split.
  return cases.filter((_, index) => chosen.has(index));
}
