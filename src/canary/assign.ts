/**
 * Deterministic sticky canary assignment: a key (user, tenant, session) hashes to a bucket
 * in [0, 1) and is in the canary when its bucket is below the fraction. The same key and salt
 * always give the same bucket, so a user stays in one variant for the whole canary; raising
 * the fraction only adds users (nobody flips from canary back to control); a new salt draws
 * an independent split for the next canary.
 *
 * SHA-256 rather than a fast non-cryptographic hash: keys are often sequential ids
 * (user-1, user-2, …) and its output bits are uniform for any such input.
 */
import { createHash } from 'node:crypto';

export type CanaryVariant = 'canary' | 'control';

export interface Assignment {
  key: string;
  variant: CanaryVariant;
  /** Uniform in [0, 1): the key is in the canary when bucket < fraction. */
  bucket: number;
}

export const DEFAULT_SALT = 'isobudget-canary';

/** 48 bits of the hash: exact in a double, and finer than any fraction anyone will set. */
const BUCKET_BITS = 2 ** 48;

export function canaryBucket(key: string, salt = DEFAULT_SALT): number {
  // NUL between salt and key so ("ab", "c") and ("a", "bc") do not collide.
  const digest = createHash('sha256').update(`${salt}\u0000${key}`, 'utf8').digest();
  return digest.readUIntBE(0, 6) / BUCKET_BITS;
}

export function assignCanary(key: string, fraction: number, salt = DEFAULT_SALT): Assignment {
  if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`fraction must be in [0, 1], got ${fraction}`);
  const bucket = canaryBucket(key, salt);
  return { key, variant: bucket < fraction ? 'canary' : 'control', bucket };
}
