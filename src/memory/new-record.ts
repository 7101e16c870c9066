/** Version 1 of a record, with every optional field spelled out so records compare whole. */
import { MEMORY_SCHEMA_VERSION, type MemoryRecord, type MemoryType, type Provenance } from './record.js';

export type NewRecordFields = Provenance & Partial<Omit<MemoryRecord, keyof Provenance | 'memory_id' | 'type' | 'version' | 'created_at' | 'updated_at' | 'schema_version'>> & { subject: string; source: string; changelog: string; weight: number };

export function newRecord(memoryId: string, type: MemoryType, fields: NewRecordFields, now: Date): MemoryRecord {
  const at = now.toISOString();
  return {
    schema_version: MEMORY_SCHEMA_VERSION,
    memory_id: memoryId,
    type,
    version: 1,
    status: 'active',
    status_reason: null,
    weight_at: at,
    confirmed_at: at,
    candidate_id: null,
    baseline_id: null,
    experiment: null,
    split: null,
    same_budget_delta: null,
    same_budget_ci95: null,
    bestofn_off_delta: null,
    tokens_per_success_delta: null,
    bestofn_ratio: null,
    pattern: null,
    reason: null,
    disposition: 'evidence',
    level: 'note',
    title: null,
    body: null,
    skill: null,
    run_ids: [],
    evidence: [],
    approvals: [],
    ...fields,
    created_at: at,
    updated_at: at,
  };
}
