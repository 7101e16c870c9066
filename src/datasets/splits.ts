/**
 * Train/val/test must be disjoint — checked, not assumed. A leak is the same id, or the same
 * normalized input text, in two splits; both compare in NFKC with invisible (default-ignorable)
 * code points dropped (core/comparable-text.ts), so "é" in NFC and NFD, or a zero-width space,
 * cannot hide a leaked case.
 */
import type { EvalCase } from '../core/case.js';
import { comparableForm, comparableText } from '../core/comparable-text.js';
import { IsobudgetError } from '../core/errors.js';
import type { SplitName } from '../config/types.js';

export type SplitsInput = Partial<Record<SplitName, readonly EvalCase[] | undefined>>;

export interface LeakSide {
  split: SplitName;
  id: string;
  file: string;
  line: number;
}

export interface SplitLeak {
  /** Why the two cases count as the same: same `id`, same normalized `input`, or both. */
  reasons: Array<'id' | 'input'>;
  /** The case in the earlier split (train < val < test). */
  first: LeakSide;
  second: LeakSide;
  /** One readable line, e.g. for a report. */
  description: string;
}

const ORDER: readonly SplitName[] = ['train', 'val', 'test'];

/** NFKC, invisible code points dropped, lowercase, whitespace collapsed, trimmed; a messages row uses all its contents. */
export function normalizedInput(evalCase: EvalCase): string {
  const text = evalCase.messages ? evalCase.messages.map((m) => m.content).join('\n') : evalCase.input;
  return comparableText(text);
}

function side(split: SplitName, evalCase: EvalCase): LeakSide {
  return { split, id: evalCase.id, file: evalCase.source.file, line: evalCase.source.line };
}

function describeSide(s: LeakSide): string {
  return `${s.split} ${JSON.stringify(s.id)} (${s.file}:${s.line})`;
}

function index<K>(cases: readonly EvalCase[], key: (c: EvalCase) => K): Map<K, EvalCase[]> {
  const map = new Map<K, EvalCase[]>();
  for (const c of cases) map.set(key(c), [...(map.get(key(c)) ?? []), c]);
  return map;
}

export function checkSplitOverlap(splits: SplitsInput): SplitLeak[] {
  const leaks: SplitLeak[] = [];
  for (const [i, firstSplit] of ORDER.entries()) {
    const firstCases = splits[firstSplit];
    if (!firstCases) continue;
    for (const secondSplit of ORDER.slice(i + 1)) {
      const secondCases = splits[secondSplit];
      if (!secondCases) continue;
      const byId = index(secondCases, (c) => comparableForm(c.id));
      const byInput = index(secondCases, normalizedInput);
      for (const a of firstCases) {
        const reasons = new Map<EvalCase, Array<'id' | 'input'>>();
        for (const b of byId.get(comparableForm(a.id)) ?? []) reasons.set(b, ['id']);
        const text = normalizedInput(a);
        if (text !== '') for (const b of byInput.get(text) ?? []) reasons.set(b, [...(reasons.get(b) ?? []), 'input']);
        for (const [b, why] of reasons) {
          const first = side(firstSplit, a);
          const second = side(secondSplit, b);
          const what = why.map((r) => (r === 'id' ? 'same id' : 'same input')).join(', ');
          leaks.push({ reasons: why, first, second, description: `${describeSide(first)} and ${describeSide(second)}: ${what}` });
        }
      }
    }
  }
  return leaks;
}

export interface AssertNoOverlapOptions {
  /** Leaks listed in the message before "and N more" (default 10). */
  maxListed?: number;
}

/** Throws when any case leaks between splits. Accepts the splits or leaks already found. */
export function assertNoOverlap(input: SplitsInput | readonly SplitLeak[], options: AssertNoOverlapOptions = {}): void {
  const leaks = Array.isArray(input) ? (input as readonly SplitLeak[]) : checkSplitOverlap(input as SplitsInput);
  const head = leaks[0];
  if (head === undefined) return;
  const limit = options.maxListed ?? 10;
  const listed = leaks.slice(0, limit).map((leak) => `  - ${leak.description}`);
  if (leaks.length > limit) listed.push(`  … and ${leaks.length - limit} more`);
  throw new IsobudgetError('split_overlap', `${leaks.length} case(s) leak between splits:\n${listed.join('\n')}`, {
    location: { file: head.second.file, line: head.second.line, key: head.reasons.includes('id') ? 'id' : 'input' },
    hint: 'remove or rewrite the shared cases so train/val/test are disjoint, or pass --allow-overlap to run anyway (leaked cases are not held out)',
  });
}
