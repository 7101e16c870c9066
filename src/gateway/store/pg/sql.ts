/**
 * The statements gateway replicas share a budget with. Each budget change is ONE statement
 * (one implicit transaction), so no replica ever reads a balance and writes it back later:
 *
 * - a reservation is a conditional UPDATE — `spent + reserved + n ≤ budget` is checked on the
 *   row it increments, under its row lock — with the reservation row inserted in the same
 *   statement (no check-then-increment race, LiteLLM #34732; no per-pod counters, #23714);
 * - a settlement releases the reservation, books the bill and inserts the call row together
 *   (the ledger is the accounting, not a post-hoc copy of it, #26672);
 * - a replica declared dead reserves no more (its row is no longer `live`): its open
 *   reservations are booked as spent by whoever reclaimed it, and never re-granted.
 * Tokens are always in `reserved` or `spent`; a reservation row leaves only by its settlement,
 * its release (a call that never left), or a reclaim — each moving its tokens in the same statement.
 */

/**
 * Reservations are made only while the replica's row says `live`. A replica declared dead
 * while one of its reservations commits leaves that row behind: harmless (its tokens stay in
 * `reserved`, granted to no one) and swept as spent by the next reclaim (TAKE_RESERVATIONS).
 */
const LIVE = `EXISTS (SELECT 1 FROM gateway_replicas WHERE id = $1 AND state = 'live')`;

/**
 * $1 replica, $2 key, $3 ticket (the call id), $4 wanted (prompt + cap × choices), $5 prompt,
 * $6 choices, $7 model, $8 endpoint, $9 protocol, $10 stream, $11 client session.
 *
 * ONE conditional UPDATE: reserved += n WHERE spent + reserved + n ≤ budget, with n = the wanted
 * tokens or — when less is left — the prompt plus as many whole choices' worth as remain (never
 * below prompt + choices). SET expressions read the row as locked, so n is computed from the
 * balance it is added to; `last_grant` hands n to the reservation row inserted in the same
 * statement. Returns the tokens granted (no row: not granted).
 */
const GRANT = `LEAST($4::bigint, $5::bigint + ((k.budget - k.spent - k.reserved - $5::bigint) / $6::bigint) * $6::bigint)`;
export const RESERVE_CALL = `
WITH granted AS (
  UPDATE gateway_keys k SET reserved = k.reserved + ${GRANT}, last_grant = ${GRANT}
  WHERE k.id = $2 AND k.closed IS NULL AND NOT k.revoked AND ${LIVE}
    AND k.budget - k.spent - k.reserved - $5::bigint >= $6::bigint
    AND k.spent + k.reserved + ${GRANT} <= k.budget
  RETURNING k.id, k.last_grant AS n)
INSERT INTO gateway_reservations (ticket, key_id, replica_id, kind, tokens, model, endpoint, protocol, stream, session_id)
SELECT $3, id, $1, 'call', n, $7, $8, $9, $10, $11 FROM granted
RETURNING tokens`;

/** What a lease grant ends with: the granted tokens added to the replica's lease row ($1 replica, $3 ticket). */
const ADD_TO_LEASE = `INSERT INTO gateway_reservations (ticket, key_id, replica_id, kind, tokens)
SELECT $3, id, $1, 'lease', n FROM granted
ON CONFLICT (ticket) DO UPDATE SET tokens = gateway_reservations.tokens + excluded.tokens
RETURNING (SELECT n FROM granted) AS granted`;

/**
 * $1 replica, $2 key, $3 lease ticket, $4 wanted, $5 least acceptable. Adds min(wanted, what is
 * left) to the replica's lease on the key, when at least $5 is left — the same one conditional
 * UPDATE. Returns the tokens added.
 */
const LEASE_GRANT = `LEAST($4::bigint, k.budget - k.spent - k.reserved)`;
export const EXTEND_LEASE = `
WITH granted AS (
  UPDATE gateway_keys k SET reserved = k.reserved + ${LEASE_GRANT}, last_grant = ${LEASE_GRANT}
  WHERE k.id = $2 AND k.closed IS NULL AND NOT k.revoked AND ${LIVE}
    AND k.budget - k.spent - k.reserved >= $5::bigint
    AND k.spent + k.reserved + ${LEASE_GRANT} <= k.budget
  RETURNING k.id, k.last_grant AS n)
${ADD_TO_LEASE}`;

/**
 * Per-call mode's automatic leases. $1 replica, $2 key, $3 lease ticket, $4 cap (tokens), $5 least
 * (the call's reservation), $6 share. Adds min(max(cap, 4 × least), remaining / ($6 × live replicas))
 * to the replica's lease on the key — a share of the remainder, so N replicas together hold at most
 * 1/$6 of it and a replica that dies loses no more than its share — only when that share covers
 * $5; else nothing (the call reserves alone, RESERVE_CALL). The same one conditional UPDATE.
 */
const AUTO_GRANT = `LEAST(GREATEST($4::bigint, 4 * $5::bigint), (k.budget - k.spent - k.reserved) / ($6::bigint * GREATEST(1, (SELECT count(*) FROM gateway_replicas WHERE state = 'live'))))`;
export const EXTEND_AUTO_LEASE = `
WITH granted AS (
  UPDATE gateway_keys k SET reserved = k.reserved + ${AUTO_GRANT}, last_grant = ${AUTO_GRANT}
  WHERE k.id = $2 AND k.closed IS NULL AND NOT k.revoked AND ${LIVE}
    AND ${AUTO_GRANT} >= GREATEST($5::bigint, 1)
    AND k.spent + k.reserved + ${AUTO_GRANT} <= k.budget
  RETURNING k.id, k.last_grant AS n)
${ADD_TO_LEASE}`;

/**
 * $1 lease ticket, $2 calls (JSONB array of {ticket, tokens, model, endpoint, protocol, stream,
 * session_id}), $3 replica. Moves the calls' Σ tokens from the replica's lease row into one
 * reservation row per call (all inside the key's `reserved`: the key row is not written, only
 * read, so it is not locked) when the lease holds them all and the key is open; else nothing.
 * Returns one row per call taken.
 */
export const TAKE_FROM_LEASE = `
WITH calls AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(ticket text, tokens bigint, model text, endpoint text, protocol text, stream boolean, session_id text)),
lease AS (
  UPDATE gateway_reservations l SET tokens = l.tokens - (SELECT sum(tokens) FROM calls)
  WHERE l.ticket = $1 AND l.kind = 'lease' AND l.replica_id = $3 AND l.tokens >= (SELECT sum(tokens) FROM calls)
    AND EXISTS (SELECT 1 FROM gateway_replicas WHERE id = $3 AND state = 'live')
    AND EXISTS (SELECT 1 FROM gateway_keys k WHERE k.id = l.key_id AND k.closed IS NULL AND NOT k.revoked)
  RETURNING l.key_id)
INSERT INTO gateway_reservations (ticket, key_id, replica_id, kind, tokens, model, endpoint, protocol, stream, session_id)
SELECT c.ticket, lease.key_id, $3, 'call', c.tokens, c.model, c.endpoint, c.protocol, c.stream, c.session_id FROM calls c, lease
RETURNING tokens`;

/** $1 ticket, $2 tokens: gives unused lease tokens back to the key. */
export const RETURN_LEASE = `
WITH res AS (UPDATE gateway_reservations SET tokens = tokens - $2::bigint WHERE ticket = $1 RETURNING key_id)
UPDATE gateway_keys k SET reserved = k.reserved - $2::bigint FROM res WHERE k.id = res.key_id`;

/** $1 ticket: a call's reservation that never went upstream. */
export const RELEASE_CALL = `
WITH res AS (DELETE FROM gateway_reservations WHERE ticket = $1 RETURNING key_id, tokens)
UPDATE gateway_keys k SET reserved = k.reserved - res.tokens FROM res WHERE k.id = res.key_id`;

/**
 * Settlements and call rows, many calls in ONE statement (one transaction): $1 is a JSONB array
 * of rows {ticket, kind, key_id, booked, over, lease_part, call_id, replica_id, ts, model,
 * endpoint, status, session_id, reserved_tokens, total_tokens, outcome, record}. `kind`:
 * - `call`: the call's own reservation row goes and its tokens leave `reserved` (ticket null: a key without budget);
 * - `lease`: `lease_part` (min(booked, reservation)) leaves the replica's lease row and `reserved`;
 * - `none`: a refused call, its row alone.
 * `booked` (the bill, or the reservation when unknown) goes to `spent`; `over` (billed beyond
 * the reservation) closes the key. When the reservation row is gone, a reclaim has already
 * booked it whole as spent (the replica was declared dead) and written an unknown-outcome row
 * for the call: only a bill beyond the reservation is booked now, and the row is completed.
 * Invariant kept: spent = Σ gateway_calls.booked_tokens of the key.
 */
export const SETTLE_BATCH = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    ticket text, kind text, key_id text, booked bigint, over bigint, lease_part bigint, call_id text, replica_id text, ts timestamptz,
    model text, endpoint text, status int, session_id text, reserved_tokens bigint, total_tokens bigint, outcome text, record jsonb)),
released_calls AS (
  DELETE FROM gateway_reservations r USING input i
  WHERE i.kind = 'call' AND r.ticket = i.ticket AND r.kind = 'call'
  RETURNING r.ticket, r.tokens),
lease_parts AS (SELECT ticket, sum(lease_part)::bigint AS part FROM input WHERE kind = 'lease' GROUP BY ticket),
released_leases AS (
  UPDATE gateway_reservations r SET tokens = r.tokens - p.part FROM lease_parts p
  WHERE r.ticket = p.ticket AND r.kind = 'lease'
  RETURNING r.ticket),
book AS (
  SELECT i.*,
    CASE WHEN c.ticket IS NOT NULL THEN c.tokens WHEN l.ticket IS NOT NULL THEN i.lease_part ELSE 0 END AS released,
    CASE WHEN c.ticket IS NOT NULL OR l.ticket IS NOT NULL THEN i.booked ELSE GREATEST(i.booked - COALESCE(i.reserved_tokens, 0), 0) END AS booked_now
  FROM input i
  LEFT JOIN released_calls c ON i.kind = 'call' AND c.ticket = i.ticket
  LEFT JOIN released_leases l ON i.kind = 'lease' AND l.ticket = i.ticket),
keys AS (
  UPDATE gateway_keys k SET reserved = k.reserved - s.released, spent = k.spent + s.booked,
    closed = CASE WHEN s.over > 0 THEN COALESCE(k.closed, 'over_reservation') ELSE k.closed END,
    over_reservation = k.over_reservation + s.over
  FROM (SELECT key_id, sum(released)::bigint AS released, sum(booked_now)::bigint AS booked, sum(over)::bigint AS over FROM book GROUP BY key_id) s
  WHERE k.id = s.key_id AND (s.released <> 0 OR s.booked <> 0 OR s.over <> 0))
INSERT INTO gateway_calls (call_id, key_id, replica_id, ticket, ts, model, endpoint, status, session_id, reserved_tokens, booked_tokens, total_tokens, over_reservation, outcome, record)
SELECT call_id, key_id, replica_id, ticket, ts, model, endpoint, status, session_id, reserved_tokens, booked_now, total_tokens, NULLIF(over, 0), outcome,
       CASE WHEN kind = 'none' THEN record ELSE jsonb_set(record, '{booked_tokens}', to_jsonb(booked_now)) END
FROM book
ON CONFLICT (call_id) DO UPDATE SET
  status = excluded.status, total_tokens = excluded.total_tokens, over_reservation = excluded.over_reservation,
  outcome = 'settled_after_reclaim', booked_tokens = gateway_calls.booked_tokens + excluded.booked_tokens,
  record = jsonb_set(jsonb_set(excluded.record, '{booked_tokens}', to_jsonb(gateway_calls.booked_tokens + excluded.booked_tokens)), '{outcome}', '"settled_after_reclaim"')`;

/** $1 replica: true while it is live (else it was reclaimed and must re-register). */
export const HEARTBEAT = `UPDATE gateway_replicas SET heartbeat_at = now() WHERE id = $1 AND state = 'live' RETURNING id`;

/** $1 stale after (ms), $2 the reclaiming replica: marks replicas silent that long reclaimed (database time, no clock skew). */
export const MARK_STALE = `
UPDATE gateway_replicas SET state = 'reclaimed', reclaimed_by = $2
WHERE state = 'live' AND id <> $2 AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
RETURNING id`;

/**
 * $1 replica ids: their reservations, gone, with what the unknown-outcome record needs — and
 * any reservation of a replica no longer live (one that committed as its replica was reclaimed).
 */
export const TAKE_RESERVATIONS = `
DELETE FROM gateway_reservations r USING gateway_keys k
WHERE r.key_id = k.id AND (r.replica_id = ANY($1::text[]) OR r.replica_id IN (SELECT id FROM gateway_replicas WHERE state <> 'live'))
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
ON CONFLICT (call_id) DO UPDATE SET
  booked_tokens = gateway_calls.booked_tokens + excluded.booked_tokens,
  record = jsonb_set(gateway_calls.record, '{booked_tokens}', to_jsonb(gateway_calls.booked_tokens + excluded.booked_tokens))`;

export const KEY_COLUMNS = 'id, budget, tags, created_at, spent, reserved, revoked, closed, over_reservation';
