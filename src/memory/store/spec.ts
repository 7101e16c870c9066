/**
 * The governance store interface. Everything that changes is written as a `ChangeSet`
 * applied in one transaction, with optimistic checks (a record's new version must be
 * head + 1; a new id must be free; a review item must still have the status the decision
 * saw). A losing writer gets `StoreConflictError` and recomputes from fresh reads
 * (`withConflictRetry`). The methods are async so a Postgres implementation (DESIGN §10)
 * can sit behind the same interface; the SQLite one answers synchronously inside.
 */
import type { MemoryRecord, MemoryStatus, MemoryType } from '../record.js';
import type { GateLayerResult, GateRun, GateStatus, ReviewDecision, ReviewItem, ReviewStatus, TestSplitUse } from './records.js';

export interface RecordWrite {
  /** The new version; `record.version - 1` must be the current head (0: a new record). */
  record: MemoryRecord;
  /** Unified diff of the skill text (or a learning's body) against the previous version. */
  diff: string | null;
}

export interface ChangeSet {
  records?: RecordWrite[];
  /** `expected`: the status the writer saw (null: a new gate). */
  gates?: Array<{ gate: GateRun; expected: GateStatus | null }>;
  layers?: GateLayerResult[];
  testUses?: TestSplitUse[];
  reviewItems?: Array<{ item: ReviewItem; expected: ReviewStatus | null }>;
  decisions?: ReviewDecision[];
  settings?: Record<string, string>;
}

export interface StoredVersion {
  record: MemoryRecord;
  diff: string | null;
  created_at: string;
}

export interface RecordFilter {
  types?: readonly MemoryType[];
  statuses?: readonly MemoryStatus[];
  candidateId?: string;
  subject?: string;
}

export interface MemoryStore {
  /** Applies every change or none. Throws StoreConflictError when a check fails, IsobudgetError on a refused record. */
  commit(changes: ChangeSet): Promise<void>;
  getRecord(memoryId: string): Promise<MemoryRecord | undefined>;
  listRecords(filter?: RecordFilter): Promise<MemoryRecord[]>;
  /** Every version of a record, oldest first. */
  listVersions(memoryId: string): Promise<StoredVersion[]>;
  getGate(gateId: string): Promise<GateRun | undefined>;
  listGates(): Promise<GateRun[]>;
  /** A gate's layer results in the order recorded (a layer may be recorded more than once, e.g. layer 5 pending → passed). */
  listLayers(gateId: string): Promise<GateLayerResult[]>;
  listTestUses(datasetSha256?: string): Promise<TestSplitUse[]>;
  getReviewItem(reviewId: string): Promise<ReviewItem | undefined>;
  listReviewItems(statuses?: readonly ReviewStatus[]): Promise<ReviewItem[]>;
  listDecisions(reviewId?: string): Promise<ReviewDecision[]>;
  getSettings(): Promise<Record<string, string>>;
  /** Runs the backend's own consistency check; [] when healthy. */
  integrityProblems(): Promise<string[]>;
  close(): void;
}

/** Another writer got there first; re-read and try again. */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
}

/** Runs read-compute-commit until it commits without a conflict (bounded). */
export async function withConflictRetry<T>(attempt: () => Promise<T>, tries = 20): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StoreConflictError) || i >= tries) throw error;
      // Jittered pause so two writers that collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 10 * i)));
    }
  }
}
