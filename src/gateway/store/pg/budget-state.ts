/**
 * What a replica tells a call it could not admit: the key is closed, its settled spend has
 * used the budget up, or reservations in flight (on any replica) hold the rest — then the
 * call waits for them, as on the embedded gateway.
 */
import type { Database } from '../../../db/index.js';
import type { Admission, OverReservation } from '../../budget/key-budgets.js';
import { OVER_RESERVATION } from '../../budget/key-budgets.js';
import type { VirtualKey } from '../../keys/virtual-key.js';

export type Refusal = Extract<Admission, { ok: false }>;

/** A refusal, or undefined when the call should wait and try again. */
export async function whyNot(db: Database, key: VirtualKey, promptTokens: number, choices: number): Promise<Refusal | undefined> {
  const { rows } = await db.query<{ budget: string; spent: string; reserved: string; revoked: boolean; closed: string | null }>({ name: 'isobudget_key_state', text: 'SELECT budget, spent, reserved, revoked, closed FROM gateway_keys WHERE id = $1', values: [key.id] });
  const row = rows[0];
  if (row === undefined) return closedRefusal(key, 'deleted');
  if (row.closed !== null) return closedRefusal(key, row.closed);
  if (row.revoked) return closedRefusal(key, 'revoked');
  const budget = Number(row.budget);
  const spent = Number(row.spent);
  if (budget - spent - promptTokens < choices) return { ok: false, reason: 'spent', detail: `budget ${budget} tokens, ${spent} spent, this prompt ≈${promptTokens}${choices > 1 ? ` and ${choices} choices` : ''}` };
  return undefined;
}

export function closedRefusal(key: VirtualKey, reason: string): Refusal {
  const detail = reason === OVER_RESERVATION
    ? `key ${key.id} was closed: a call billed more than it reserved (over_reservation), so the budget can no longer be guaranteed; mint a new key`
    : `key ${key.id} was closed (${reason})`;
  return { ok: false, reason: 'closed', detail };
}

export function waitedTooLong(key: VirtualKey, promptTokens: number, why: 'gone' | 'deadline', maxWaitMs: number): Refusal {
  const detail = `budget ${key.budget ?? 0} tokens, this prompt ≈${promptTokens}`;
  return { ok: false, reason: 'spent', detail: why === 'gone' ? `${detail}; the client went away while waiting` : `${detail}; calls in flight held the rest for ${maxWaitMs} ms` };
}

/** A bill above its reservation closes the key on this replica at once (in the database with the settlement); the excess, else undefined. */
export function closeIfOver(key: VirtualKey, reservation: number, billed: number | undefined, closed: Map<string, string>): OverReservation {
  if (key.budget === undefined || billed === undefined || billed <= reservation) return undefined;
  closed.set(key.id, OVER_RESERVATION);
  return billed - reservation;
}
