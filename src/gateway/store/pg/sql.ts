/**
 * The statements gateway replicas share a budget with. Each budget change is ONE statement
 * (one implicit transaction), so no replica ever reads a balance and writes it back later:
 *
 * - a reservation is a conditional UPDATE — `spent + reserved + n ≤ budget` is checked on the
 *   row it increments, under its row lock — with the reservation row inserted in the same
 *   statement (no check-then-increment race, LiteLLM #34732; no per-pod counters, #23714);
 * - a settlement releases the reservation, books the bill and inserts the call row together
 *   (the ledger is the accounting, not a post-hoc copy of it, #26672);
 * - every statement runs only while the replica's row says `live` (FOR KEY SHARE), so a
 *   replica declared dead can never again reserve: its open reservations are booked as spent
 *   by whoever reclaimed it, and never re-granted.
 */

/** Keys the replica may reserve on only while its own row is live (locked against a concurrent reclaim). */
const LIVE = `live AS (SELECT id FROM gateway_replicas WHERE id = $1 AND state = 'live' FOR KEY SHARE)`;

/**
 * $1 replica, $2 key, $3 ticket (the call id), $4 wanted (prompt + cap × choices), $5 prompt, $6 choices,
 * $7 model, $8 endpoint, $9 protocol, $10 stream, $11 client session. Grants the wanted tokens, or — when less is
 * left — the prompt plus as many whole choices' worth as remain; nothing below prompt + choices.
 * Returns the tokens granted (no row: not granted).
 */
export const RESERVE_CALL = `
WITH ${LIVE},
ask AS (
  SELECT k.id, LEAST($4::bigint, $5::bigint + ((k.budget - k.spent - k.reserved - $5::bigint) / $6::bigint) * $6::bigint) AS n
  FROM gateway_keys k, live
  WHERE k.id = $2 AND k.closed IS NULL AND NOT k.revoked AND k.budget - k.spent - k.reserved - $5::bigint >= $6::bigint
  FOR UPDATE OF k),
granted AS (
  UPDATE gateway_keys k SET reserved = k.reserved + ask.n FROM ask
  WHERE k.id = ask.id AND k.spent + k.reserved + ask.n <= k.budget
  RETURNING k.id, ask.n)
INSERT INTO gateway_reservations (ticket, key_id, replica_id, kind, tokens, model, endpoint, protocol, stream, session_id)
SELECT $3, id, $1, 'call', n, $7, $8, $9, $10, $11 FROM granted
RETURNING tokens`;

/**
 * $1 replica, $2 key, $3 lease ticket, $4 wanted, $5 least acceptable. Adds min(wanted, what is
 * left) to the replica's lease on the key, when at least $5 is left. Returns the tokens added.
 */
export const EXTEND_LEASE = `
WITH ${LIVE},
ask AS (
  SELECT k.id, LEAST($4::bigint, k.budget - k.spent - k.reserved) AS n
  FROM gateway_keys k, live
  WHERE k.id = $2 AND k.closed IS NULL AND NOT k.revoked AND k.budget - k.spent - k.reserved >= $5::bigint
  FOR UPDATE OF k),
granted AS (
  UPDATE gateway_keys k SET reserved = k.reserved + ask.n FROM ask
  WHERE k.id = ask.id AND k.spent + k.reserved + ask.n <= k.budget
  RETURNING k.id, ask.n)
INSERT INTO gateway_reservations (ticket, key_id, replica_id, kind, tokens)
SELECT $3, id, $1, 'lease', n FROM granted
ON CONFLICT (ticket) DO UPDATE SET tokens = gateway_reservations.tokens + excluded.tokens
RETURNING (SELECT n FROM granted) AS granted`;

/** $1 ticket, $2 tokens: gives unused lease tokens back to the key. */
export const RETURN_LEASE = `
WITH res AS (UPDATE gateway_reservations SET tokens = tokens - $2::bigint WHERE ticket = $1 RETURNING key_id)
UPDATE gateway_keys k SET reserved = k.reserved - $2::bigint FROM res WHERE k.id = res.key_id`;

/** $1 ticket: a call's reservation that never went upstream. */
export const RELEASE_CALL = `
WITH res AS (DELETE FROM gateway_reservations WHERE ticket = $1 RETURNING key_id, tokens)
UPDATE gateway_keys k SET reserved = k.reserved - res.tokens FROM res WHERE k.id = res.key_id`;

/**
 * Settlement and call row in one statement. $1 ticket (NULL: a key without budget), $2 key,
 * $3 booked (the bill, or the reservation when unknown), $4 over (billed beyond the
 * reservation: closes the key), $5 call id, $6 replica, $7 ts, $8 model, $9 endpoint,
 * $10 status, $11 session, $12 reserved, $13 total tokens, $14 outcome, $15 record (JSONB).
 *
 * `res` is what the reservation row gives back. When it is gone, a reclaim has already booked
 * it whole as spent (the replica was declared dead) and written an unknown-outcome row for the
 * call: only a bill beyond the reservation is booked now, and the row is completed.
 */
function settle(res: string, released: string): string {
  return `
WITH ${res},
book AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM res) THEN ${released} ELSE 0 END AS released,
                CASE WHEN EXISTS (SELECT 1 FROM res) THEN $3::bigint ELSE GREATEST($3::bigint - COALESCE($12::bigint, 0), 0) END AS booked),
upd AS (
  UPDATE gateway_keys k SET reserved = k.reserved - book.released, spent = k.spent + book.booked,
    closed = CASE WHEN $4::bigint > 0 THEN COALESCE(k.closed, 'over_reservation') ELSE k.closed END,
    over_reservation = k.over_reservation + $4::bigint
  FROM book WHERE k.id = $2)
INSERT INTO gateway_calls (call_id, key_id, replica_id, ticket, ts, model, endpoint, status, session_id, reserved_tokens, booked_tokens, total_tokens, over_reservation, outcome, record)
SELECT $5, $2, $6, $1, $7, $8, $9, $10, $11, $12, book.booked, $13, NULLIF($4::bigint, 0), $14, jsonb_set($15::jsonb, '{booked_tokens}', to_jsonb(book.booked)) FROM book
ON CONFLICT (call_id) DO UPDATE SET
  status = excluded.status, total_tokens = excluded.total_tokens, over_reservation = excluded.over_reservation,
  outcome = 'settled_after_reclaim', booked_tokens = gateway_calls.booked_tokens + excluded.booked_tokens,
  record = jsonb_set(jsonb_set(excluded.record, '{booked_tokens}', to_jsonb(gateway_calls.booked_tokens + excluded.booked_tokens)), '{outcome}', '"settled_after_reclaim"')`;
}

/** A call with its own reservation row: the row goes, its tokens leave `reserved`. */
export const SETTLE_CALL = settle(`res AS (DELETE FROM gateway_reservations WHERE ticket = $1 AND kind = 'call' RETURNING tokens)`, `(SELECT tokens FROM res)`);

/** A call served from a lease: $16 = the part of the bill the lease held (min(booked, reservation)). */
export const SETTLE_FROM_LEASE = settle(`res AS (UPDATE gateway_reservations SET tokens = tokens - $16::bigint WHERE ticket = $1 AND kind = 'lease' RETURNING tokens)`, `$16::bigint`);

/** $1 replica: true while it is live (else it was reclaimed and must re-register). */
export const HEARTBEAT = `UPDATE gateway_replicas SET heartbeat_at = now() WHERE id = $1 AND state = 'live' RETURNING id`;

/** $1 stale after (ms), $2 the reclaiming replica: marks stale replicas reclaimed, waiting out their in-progress reservations. */
export const MARK_STALE = `
UPDATE gateway_replicas SET state = 'reclaimed', reclaimed_by = $2
WHERE id IN (SELECT id FROM gateway_replicas WHERE state = 'live' AND id <> $2 AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000) FOR UPDATE)
RETURNING id`;

/** $1 replica ids: their reservations, gone, with what the unknown-outcome record needs. */
export const TAKE_RESERVATIONS = `
DELETE FROM gateway_reservations r USING gateway_keys k
WHERE r.key_id = k.id AND r.replica_id = ANY($1::text[])
RETURNING r.ticket, r.key_id, r.replica_id, r.kind, r.tokens, r.model, r.endpoint, r.protocol, r.stream, r.session_id, r.created_at, k.tags`;

/** $1 key ids, $2 tokens: reclaimed reservations leave `reserved` and are booked as spent. */
export const BOOK_RECLAIMED = `
UPDATE gateway_keys k SET reserved = k.reserved - t.tokens, spent = k.spent + t.tokens
FROM (SELECT key_id, sum(tokens)::bigint AS tokens FROM unnest($1::text[], $2::bigint[]) AS u(key_id, tokens) GROUP BY key_id) t
WHERE k.id = t.key_id`;

/** $1 records (JSONB array): unknown-outcome call rows of reclaimed reservations. */
export const INSERT_RECLAIMED_CALLS = `
INSERT INTO gateway_calls (call_id, key_id, replica_id, ticket, ts, model, endpoint, session_id, reserved_tokens, booked_tokens, outcome, record)
SELECT r->>'call_id', r->>'key_id', r->>'replica_id', r->>'call_id', (r->>'ts')::timestamptz, r->>'model', r->>'endpoint', r->>'session_id',
       (r->>'reserved_tokens')::bigint, (r->>'booked_tokens')::bigint, 'unknown_after_crash', r
FROM jsonb_array_elements($1::jsonb) AS r
ON CONFLICT (call_id) DO NOTHING`;

export const KEY_COLUMNS = 'id, budget, tags, created_at, spent, reserved, revoked, closed, over_reservation';
