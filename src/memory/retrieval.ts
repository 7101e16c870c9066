/**
 * Retrieval for `memory search` and `memory export`: live records by decayed weight, with
 * negative patterns first and marked — seed §3/§5: counter-examples "stored more
 * prominently", so the next round sees what not to chase before what to reuse. Pure.
 */
import { effectiveWeight } from './decay.js';
import type { MemoryPolicy } from './policy.js';
import { isNegative, type MemoryRecord, type MemoryType } from './record.js';

export interface Retrieved {
  record: MemoryRecord;
  /** Weight after decay at `now`. */
  weight: number;
  negative: boolean;
}

export interface RetrieveOptions {
  now: Date;
  policy: MemoryPolicy;
  /** Words that must all appear (case-insensitive) in the record's text fields. */
  query?: string;
  types?: readonly MemoryType[];
  /** Also frozen, retired and decayed-out records (for audits; never for an agent). */
  includeInactive?: boolean;
  limit?: number;
}

function haystack(record: MemoryRecord): string {
  return [record.memory_id, record.type, record.subject, record.candidate_id, record.pattern, record.reason, record.title, record.body, record.model, record.verdict, record.source, record.skill?.name, record.skill?.description, record.skill?.text]
    .filter((part): part is string => typeof part === 'string')
    .join('\n')
    .toLowerCase();
}

export function retrieve(records: readonly MemoryRecord[], options: RetrieveOptions): Retrieved[] {
  const words = (options.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const found = records
    .filter((r) => options.types === undefined || options.types.includes(r.type))
    .map((record) => ({ record, weight: effectiveWeight(record, options.now, options.policy), negative: isNegative(record) }))
    .filter(({ record, weight }) => options.includeInactive === true || (record.status === 'active' && weight >= options.policy.retireBelow))
    .filter(({ record }) => words.length === 0 || words.every((word) => haystack(record).includes(word)))
    .sort((a, b) => Number(b.negative) - Number(a.negative) || b.weight - a.weight || b.record.updated_at.localeCompare(a.record.updated_at) || a.record.memory_id.localeCompare(b.record.memory_id));
  return options.limit === undefined ? found : found.slice(0, options.limit);
}

/** A record in the seed's memory JSON shape (plus model, weight, status), for agents and scripts. */
export function seedShape({ record, weight, negative }: Retrieved): Record<string, unknown> {
  const shape: Record<string, unknown> = {
    memory_id: record.memory_id,
    type: record.type,
    negative,
    source_run: record.source_run,
    base_url: record.base_url,
    model: record.model,
    budget: record.budget,
    n: record.n,
    same_budget_delta: record.same_budget_delta,
    bestofn_off_delta: record.bestofn_off_delta,
    tokens_per_success_delta: record.tokens_per_success_delta,
    verdict: record.verdict,
    disposition: record.disposition,
    source: record.source,
  };
  if (negative || record.pattern !== null) Object.assign(shape, { pattern: record.pattern, bestofn_ratio: record.bestofn_ratio, reason: record.reason });
  if (record.title !== null) shape['title'] = record.title;
  if (record.skill) shape['skill'] = { name: record.skill.name, description: record.skill.description, version: record.skill.version };
  return { ...shape, subject: record.subject, version: record.version, weight: Number(weight.toFixed(4)), status: record.status };
}
