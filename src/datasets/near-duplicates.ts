/**
 * Near-duplicate inputs that suggest clusters the dataset does not declare (issue 24), pure.
 * Templated questions and several questions on one document pass and fail together; read as
 * independent cases they make an interval cover the truth in 41–49% of runs instead of 95%.
 * Two inputs are near-duplicates when they agree after NFKC normalization (so full-width and
 * compatibility forms match), lowercasing, dropping default-ignorable code points (zero-width
 * spaces) and collapsing punctuation and white space. Numbers are kept: "what is 3 + 4" and
 * "what is 17 × 23" are two problems, and a split that is one template is one population.
 */
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';

/** Default-ignorable code points (zero-width space/joiners, BOM, soft hyphen, variation selectors). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

export function templateKey(input: string): string {
  return input
    .normalize('NFKC')
    .replace(IGNORABLE, '')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();
}

export interface NearDuplicates {
  /** Groups of case ids (≥ 2 each) whose inputs share a template key, largest first. */
  groups: string[][];
  /** Cases in some group. */
  cases: number;
}

export function nearDuplicates(cases: readonly EvalCase[]): NearDuplicates {
  const byKey = new Map<string, string[]>();
  for (const evalCase of cases) {
    const key = templateKey(evalCase.input);
    if (key === '') continue;
    const ids = byKey.get(key);
    if (ids) ids.push(evalCase.id);
    else byKey.set(key, [evalCase.id]);
  }
  const groups = [...byKey.values()].filter((ids) => ids.length > 1).sort((a, b) => b.length - a.length);
  return { groups, cases: groups.reduce((sum, ids) => sum + ids.length, 0) };
}

/** Share of a split in near-duplicate groups from which `validate` warns (and at least 2 cases). */
export const NEAR_DUPLICATE_SHARE = 0.05;

/**
 * The warning `validate` prints when ≥ 5% of a split's cases are near-duplicates and no case
 * declares a `cluster`; undefined otherwise.
 */
export function undeclaredClusterWarning(cases: readonly EvalCase[], where: { file: string; split: string }): IsobudgetError | undefined {
  if (cases.length === 0 || cases.some((c) => c.cluster !== undefined)) return undefined;
  const found = nearDuplicates(cases);
  if (found.cases < Math.max(2, NEAR_DUPLICATE_SHARE * cases.length)) return undefined;
  const example = found.groups[0] ?? [];
  const shown = example.slice(0, 3).map((id) => `\`${id}\``).join(', ');
  return new IsobudgetError(
    'dataset_undeclared_clusters',
    `${found.cases} of ${cases.length} ${where.split} cases are near-duplicates of another (${found.groups.length} group${found.groups.length === 1 ? '' : 's'}, e.g. ${shown}${example.length > 3 ? ', …' : ''}): the intervals treat them as independent and would be too narrow`,
    { location: { file: where.file, key: 'cluster' }, hint: 'give each row a `cluster` (its template or source document), or point datasets.fields.cluster at the key that holds it; the intervals then resample clusters' },
  );
}
