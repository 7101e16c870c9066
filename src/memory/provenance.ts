/**
 * The provenance rule: a memory without its source run, base URL, model, budget, n and
 * verdict cannot be traced or re-checked at the same budget, so it is refused — by the
 * store itself, so no write path can skip the check.
 */
import { IsobudgetError } from '../core/errors.js';
import { PROVENANCE_FIELDS, type Provenance } from './record.js';

const HINTS: Record<keyof Provenance, string> = {
  source_run: 'the run_id the memory came from (`source_run`, or `run_id` in a note\'s front matter, or --run)',
  base_url: 'the provider base URL the run called (`base_url`, or --base-url)',
  model: 'the model the evidence is about (`model`, or --model)',
  budget: 'B, tokens per case per arm, a positive integer (`budget`, or --budget)',
  n: 'the paths per case the evidence was measured at, a positive integer (`n`, or --n)',
  verdict: 'the source run\'s verdict, e.g. real_evolution (`verdict`, or --verdict)',
};

/** The provenance fields that are absent or unusable, in the canonical order. */
export function missingProvenance(candidate: Partial<Record<keyof Provenance, unknown>>): Array<keyof Provenance> {
  return PROVENANCE_FIELDS.filter((field) => {
    const value = candidate[field];
    if (field === 'budget' || field === 'n') return !(typeof value === 'number' && Number.isInteger(value) && value > 0);
    return !(typeof value === 'string' && value.trim() !== '');
  });
}

/** Throws an IsobudgetError naming every missing field; `what` says which record (a file, an id). */
export function requireProvenance(candidate: Partial<Record<keyof Provenance, unknown>>, what: string): void {
  const missing = missingProvenance(candidate);
  if (missing.length === 0) return;
  const names = missing.map((field) => `\`${field}\``).join(', ');
  throw new IsobudgetError('memory_provenance_missing', `memory record ${what} refused: missing provenance field${missing.length > 1 ? 's' : ''} ${names}`, {
    hint: missing.map((field) => `${field}: ${HINTS[field]}`).join('; '),
  });
}
