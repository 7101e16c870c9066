/** The review queue over the store: what is waiting, and applying one decision atomically. */
import { IsobudgetError } from '../core/errors.js';
import type { ReviewItem } from '../memory/store/records.js';
import { withConflictRetry, type MemoryStore } from '../memory/store/spec.js';
import { planDecision, type DecisionInput } from './decide.js';

/** Items awaiting a decision: pending first, then deferred ones, oldest first within each. */
export async function waitingItems(store: MemoryStore): Promise<ReviewItem[]> {
  const items = await store.listReviewItems(['pending', 'deferred']);
  return [...items.filter((i) => i.status === 'pending'), ...items.filter((i) => i.status === 'deferred')];
}

/** Applies one decision; re-reads and re-plans if another writer changed things meanwhile. Returns the message. */
export async function decideItem(store: MemoryStore, reviewId: string, input: DecisionInput, now: Date): Promise<string> {
  return withConflictRetry(async () => {
    const item = await store.getReviewItem(reviewId);
    if (!item) throw new IsobudgetError('not_found', `no review item ${reviewId}`, { hint: 'run `isobudget review --list` to see the queue' });
    const [records, versions, gate] = await Promise.all([store.listRecords(), store.listVersions(item.memory_id), item.gate_id ? store.getGate(item.gate_id) : Promise.resolve(undefined)]);
    const planned = planDecision(item, input, { records, versions, gate, now });
    await store.commit(planned.changes);
    return planned.message;
  });
}
