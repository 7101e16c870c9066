/**
 * Gate layer 1, contamination: a skill that quotes a test case's input or expected output
 * has seen the test set, and its test score measures memory, not skill. Matching is
 * verbatim after collapsing whitespace; strings shorter than `minChars` are not checked,
 * because answers like "42" or "yes" occur in honest text (the count of such skipped
 * strings is reported, so a short-answer dataset is visibly under-checked). Pure.
 */
import type { EvalCase } from '../core/case.js';

export interface ContaminationHit {
  split: string;
  case_id: string;
  field: 'input' | 'expected';
  text: string;
}

export interface ContaminationReport {
  hits: ContaminationHit[];
  /** Strings compared against the skill. */
  checked: number;
  /** Strings too short to check. */
  skipped_short: number;
}

const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every string an expected value holds (plain answers, and the leaves of structured ones). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'bigint') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

export function findContamination(skillText: string, splits: ReadonlyArray<{ split: string; cases: readonly EvalCase[] }>, minChars = 8): ContaminationReport {
  const haystack = normalize(skillText);
  const report: ContaminationReport = { hits: [], checked: 0, skipped_short: 0 };
  const check = (split: string, evalCase: EvalCase, field: ContaminationHit['field'], raw: string): void => {
    const needle = normalize(raw);
    if (needle.length < minChars) {
      report.skipped_short++;
      return;
    }
    report.checked++;
    if (haystack.includes(needle)) report.hits.push({ split, case_id: evalCase.id, field, text: needle.length > 80 ? `${needle.slice(0, 77)}...` : needle });
  };
  for (const { split, cases } of splits) {
    for (const evalCase of cases) {
      const inputs = evalCase.messages ? evalCase.messages.filter((m) => m.role === 'user').map((m) => m.content) : [evalCase.input];
      for (const input of inputs) check(split, evalCase, 'input', input);
      const expected = new Set([...stringsOf(evalCase.expected), ...(evalCase.reference === undefined ? [] : [evalCase.reference])]);
      for (const answer of expected) check(split, evalCase, 'expected', answer);
    }
  }
  return report;
}
