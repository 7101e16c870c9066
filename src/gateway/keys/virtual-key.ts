/**
 * Virtual keys: what clients present to the gateway instead of a provider key. A key is
 * `ibk-<id>-<secret>`; only its SHA-256 is stored, so a leaked key store yields no usable
 * key. The id is public (listings, ledger records); the secret is shown once, at minting.
 */
import { createHash, randomBytes } from 'node:crypto';
import { IsobudgetError } from '../../core/errors.js';

export const KEY_PREFIX = 'ibk-';

export interface VirtualKey {
  /** Public id, e.g. `3f9a1c0b7d2e` (never the secret). */
  id: string;
  /** Token budget of the key (prompt + completion, every call), or undefined: record only. */
  budget: number | undefined;
  /** `run`, `case`, `arm`, … — copied into every ledger record of the key. */
  tags: Record<string, string>;
  createdAt: string;
  /** Tokens booked so far (tokens): what settled calls billed, and the reservation of every call whose bill is unknown. */
  spent: number;
  revoked: boolean;
  /**
   * Why the gateway closed the key on its own, e.g. `over_reservation` (a bill exceeded what
   * its call reserved); undefined while open. A closed key takes no new calls.
   */
  closed: string | undefined;
  /** Tokens billed beyond their reservations, summed over the calls that did (tokens). */
  overReservation: number;
}

export function mintSecret(): { id: string; secret: string } {
  const id = randomBytes(6).toString('hex');
  return { id, secret: `${KEY_PREFIX}${id}-${randomBytes(24).toString('base64url')}` };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const TAG_NAME = /^[a-z][a-z0-9_]*$/;

/** `run=r1,case=c2,arm=candidate_single` → tags; names are lower-case identifiers. */
export function parseTags(text: string | undefined): Record<string, string> {
  const tags: Record<string, string> = {};
  if (text === undefined || text.trim() === '') return tags;
  for (const part of text.split(',')) {
    const index = part.indexOf('=');
    const name = (index === -1 ? part : part.slice(0, index)).trim();
    const value = index === -1 ? '' : part.slice(index + 1).trim();
    if (!TAG_NAME.test(name) || value === '') {
      throw new IsobudgetError('usage', `bad tag '${part.trim()}': expected name=value with a lower-case name`, { hint: 'e.g. --tag run=bf-001,case=date-014,arm=candidate_single' });
    }
    tags[name] = value;
  }
  return tags;
}

export function formatTags(tags: Record<string, string>): string {
  return Object.entries(tags).map(([name, value]) => `${name}=${value}`).join(',');
}
