/**
 * `datasets.fields`: which key of a row holds the id, the input, the expected answer, the
 * category and the cluster (cases that are not independent: one source document, one
 * template — the intervals resample them together), for files that do not use isobudget's names (a Hugging Face `question`/`answer`
 * file, a CSV export). Paths are dotted (`meta.id`, `turns.0.text`). Pure.
 */
import { IsobudgetError } from '../core/errors.js';

export const FIELD_ROLES = ['id', 'input', 'expected', 'category', 'cluster'] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];

/** Role → dotted path into each row; an absent role keeps its own name. */
export type DatasetFields = Partial<Record<FieldRole, string>>;

/** The value at a dotted path; arrays are addressed by index (`turns.0`). */
export function lookupPath(root: unknown, path: string): { found: true; value: unknown } | { found: false } {
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < current.length) current = current[Number(segment)];
    else if (current !== null && typeof current === 'object' && !Array.isArray(current) && Object.hasOwn(current, segment)) current = (current as Record<string, unknown>)[segment];
    else return { found: false };
  }
  return current === undefined || current === null ? { found: false } : { found: true, value: current };
}

/**
 * The row in isobudget's names: each mapped role read from its path (an `input` that is a list
 * is taken as `messages`); a top-level key that was mapped is not kept again in metadata.
 */
export function mapFields(row: Record<string, unknown>, fields: DatasetFields, where: { file: string; line: number }): { row: Record<string, unknown>; errors: IsobudgetError[] } {
  const out: Record<string, unknown> = { ...row };
  const errors: IsobudgetError[] = [];
  for (const role of FIELD_ROLES) {
    const path = fields[role];
    if (path === undefined || path === role) continue;
    const found = lookupPath(row, path);
    if (!path.includes('.')) delete out[path];
    if (!found.found) {
      // Only the required roles are errors; a row without a category or cluster simply has none.
      if (role !== 'category' && role !== 'cluster') {
        errors.push(new IsobudgetError('dataset_missing_field', `missing \`${path}\` (the ${role}, named by datasets.fields.${role})`, {
          location: { ...where, key: path },
          hint: `give every row a \`${path}\`, or point datasets.fields.${role} at the key that holds the ${role} (dotted paths like a.b.0 work)`,
        }));
      }
      continue;
    }
    if (role === 'input' && Array.isArray(found.value)) {
      delete out['input'];
      out['messages'] = found.value;
    } else {
      out[role] = role === 'id' || role === 'category' || role === 'cluster' ? scalarText(found.value) : found.value;
    }
  }
  return { row: out, errors };
}

/** CSV and JSON give ids, categories and clusters as numbers or strings alike. */
function scalarText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}
