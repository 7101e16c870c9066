/**
 * What an upstream bills for a prompt's text, relative to our o200k count of its billable
 * content (billable-content.ts), learned from settled calls, pure. Real providers bill with
 * their own tokenizers and templates, and one OpenAI-compatible base URL may serve Claude, Qwen
 * and DeepSeek models: a fixed margin over o200k is a guess, so it is learned — carefully.
 *
 * - Per (base URL, model, body shape): a ratio seen on short chat turns says nothing about a
 *   page of prose or a body of tool schemas (body-shape.ts buckets them).
 * - The bound: a target whose model bills with o200k (OpenAI's published tokenizer) is
 *   reserved at PUBLISHED_RATIO at least; any other at SEED_RATIO (above the 1.4–1.55 seen
 *   for foreign tokenizers on English, CJK and code).
 * - Learning only raises for everyone: every settled call's ratio (plus RATIO_MARGIN) is a
 *   floor for every key of its bucket. Below the bound it goes only for a key that has itself
 *   settled MIN_SIMILAR_CALLS calls of that bucket, and only for that key: one key's calls
 *   never lower another key's reservation below the bound.
 * The ratio is (billed − the overhead a bill surely holds) / counted, template included: if an
 * upstream bills r·c + t, a prompt of c₀ teaches r + t/c₀, which covers every longer prompt of
 * its bucket. Prompts under MIN_LEARNING_COUNT teach nothing: on them the template is most of
 * the bill, and PROMPT_OVERHEAD is what covers it.
 */
import { billsWithO200k, modelFamily } from './model-family.js';

/** Reservation factor for a model that does not bill with o200k, before its key has settled enough similar calls. */
export const SEED_RATIO = 1.6;
/** The bound for a model that bills with o200k: our count of its content is its count. */
export const PUBLISHED_RATIO = 1;
/** Added to the worst observed ratio (relative): the next prompt may tokenize a little worse. */
export const RATIO_MARGIN = 0.05;
/** Tokens reserved on top of every estimated prompt (unpublished template and framing). */
export const PROMPT_OVERHEAD = 16;
/** Prompts shorter than this (counted tokens) are not learned from. */
export const MIN_LEARNING_COUNT = 32;
/** Settled calls of one key in one bucket before that key's factor may go below the bound. */
export const MIN_SIMILAR_CALLS = 20;
/** Keys remembered per bucket (oldest dropped first: a dropped key starts again at the bound). */
const KEYS_PER_BUCKET = 4096;

export interface RatioTarget {
  baseUrl: string;
  model: string;
}

/** Which calls a ratio is learned from and applied to. */
export interface RatioScope {
  /** The body's shape (body-shape.ts); calls of different shapes teach each other nothing. */
  shape?: string;
  /** The virtual key (gateway) or run making the call. */
  keyId?: string;
}

interface Seen {
  /** Highest ratio seen. */
  worst: number;
  calls: number;
}

interface Bucket extends Seen {
  keys: Map<string, Seen>;
}

export class BillingRatios {
  private readonly learned = new Map<string, Bucket>();

  /** The bound a target's factor stays at or above until its key has learned otherwise. */
  bound(target: RatioTarget): number {
    return billsWithO200k(modelFamily(target.model)) ? PUBLISHED_RATIO : SEED_RATIO;
  }

  /** The factor a prompt of this target, shape and key is reserved with. */
  factor(target: RatioTarget, scope: RatioScope = {}): number {
    const bound = this.bound(target);
    const bucket = this.learned.get(keyOf(target, scope));
    if (bucket === undefined) return bound;
    const shared = round4(bucket.worst * (1 + RATIO_MARGIN));
    const own = bucket.keys.get(scope.keyId ?? '');
    return own !== undefined && own.calls >= MIN_SIMILAR_CALLS ? shared : Math.max(bound, shared);
  }

  /** Learns from a settled call: `counted` is our count of its billable text, `billed` the prompt tokens billed for that text (overheads taken off). */
  observe(target: RatioTarget, scope: RatioScope, counted: number, billed: number | undefined): void {
    if (billed === undefined || !Number.isFinite(billed) || billed < 0 || counted < MIN_LEARNING_COUNT) return;
    const ratio = billed / counted;
    const key = keyOf(target, scope);
    let bucket = this.learned.get(key);
    if (bucket === undefined) this.learned.set(key, (bucket = { worst: ratio, calls: 0, keys: new Map() }));
    bucket.worst = Math.max(bucket.worst, ratio);
    bucket.calls += 1;
    const keyId = scope.keyId ?? '';
    const own = bucket.keys.get(keyId);
    if (own !== undefined) {
      own.worst = Math.max(own.worst, ratio);
      own.calls += 1;
      return;
    }
    if (bucket.keys.size >= KEYS_PER_BUCKET) bucket.keys.delete(bucket.keys.keys().next().value as string);
    bucket.keys.set(keyId, { worst: ratio, calls: 1 });
  }

  /** Settled calls learned from, per target (and shape, and key when given): for reports and tests. */
  calls(target: RatioTarget, scope?: RatioScope): number {
    if (scope === undefined) {
      const prefix = `${target.baseUrl}\u0000${target.model}\u0000`;
      let total = 0;
      for (const [key, bucket] of this.learned) if (key.startsWith(prefix)) total += bucket.calls;
      return total;
    }
    const bucket = this.learned.get(keyOf(target, scope));
    if (bucket === undefined) return 0;
    return scope.keyId === undefined ? bucket.calls : (bucket.keys.get(scope.keyId)?.calls ?? 0);
  }
}

function keyOf(target: RatioTarget, scope: RatioScope): string {
  return `${target.baseUrl}\u0000${target.model}\u0000${scope.shape ?? ''}`;
}

function round4(value: number): number {
  // Rounded up to 4 places (never below the exact factor); the epsilon absorbs float noise like 1.5750000000000002.
  return Math.ceil(value * 10_000 - 1e-9) / 10_000;
}
