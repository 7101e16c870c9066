/**
 * Per-call budgets across replicas (the default of `gateway --db`): every call reserves its
 * worst case — prompt estimate + cap × choices, or what is left when less is — with one
 * conditional statement on the key's row (sql.ts RESERVE_CALL), and its settlement goes with
 * its call row (pg-book.ts). One round trip to Postgres sits on each call's path.
 *
 * With automatic leases (`auto`, openPgStore's default) a call with an output cap takes its
 * reservation from a lease its replica holds on the key (auto-leases.ts) — still its own row,
 * but without locking the key's row, on which every call of every replica queued before. A
 * call without a cap, or one the lease's share no longer covers, reserves on the key row.
 */
import type { Database } from '../../../db/index.js';
import type { Admission, AdmitRequest, OverReservation } from '../../budget/key-budgets.js';
import type { BudgetFields } from '../../budget-fields.js';
import { clampRequest } from '../../clamp-request.js';
import type { VirtualKey } from '../../keys/virtual-key.js';
import type { Budgets } from '../gateway-store.js';
import { closedRefusal, closeIfOver, waitedTooLong, whyNot } from './budget-state.js';
import { KeyWaiters } from './key-waiters.js';
import { budgetQuery, type PgWriter } from './pg-writer.js';
import type { AutoLeases } from './auto-leases.js';
import type { Replica } from './replica.js';
import { RELEASE_CALL, RESERVE_CALL } from './sql.js';

const ENDPOINT = { 'anthropic-messages': '/v1/messages', 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses' } as const;

export class CallBudgets implements Budgets {
  private readonly waiters = new KeyWaiters();
  /** Keys this replica saw bill over a reservation: closed here at once, in the database with the settlement. */
  private readonly closed = new Map<string, string>();
  private counter = 0;

  constructor(
    private readonly db: Database, private readonly replica: Replica, private readonly writer: PgWriter, private readonly maxWaitMs = 600_000,
    private readonly auto?: AutoLeases | undefined,
  ) {}

  admit(request: AdmitRequest): Admission | Promise<Admission> {
    const { key, fields } = request;
    if (key.budget === undefined || fields === undefined) return { ok: true, clamp: undefined, reservation: 0, promptTokens: 0 };
    const closed = this.closed.get(key.id) ?? key.closed;
    if (closed !== undefined) return closedRefusal(key, closed);
    return this.reserve(request, key.budget, fields);
  }

  settle(key: VirtualKey, reservation: number, billed: number | undefined): OverReservation {
    const over = closeIfOver(key, reservation, billed, this.closed);
    this.waiters.wake(key.id);
    return over;
  }

  /** A reservation that billed nothing: its row goes (a call book settlement of 0 after this finds nothing left to release). */
  release(key: VirtualKey, reservation: number, ticket?: string): void {
    if (ticket !== undefined && reservation > 0) this.writer.run(RELEASE_CALL, [ticket]);
    this.waiters.wake(key.id);
  }

  private async reserve(request: AdmitRequest, budget: number, fields: BudgetFields): Promise<Admission> {
    const { key, promptTokens, protocol, body } = request;
    const { requested, choices } = fields;
    const wanted = promptTokens + (requested ?? Math.max(0, Math.floor((budget - promptTokens) / choices))) * choices;
    const columns = { model: typeof body['model'] === 'string' ? body['model'] : 'unknown', endpoint: ENDPOINT[protocol], protocol, stream: body['stream'] === true, sessionId: request.call?.sessionId ?? null };
    if (this.auto !== undefined && requested !== undefined) {
      const ticket = request.call?.id ?? `call-${this.replica.id}-${(this.counter++).toString(36)}`;
      if (await this.auto.reserve(key.id, ticket, wanted, columns)) return { ok: true, clamp: clampRequest(protocol, body, fields, wanted - promptTokens), reservation: wanted, promptTokens, ticket };
    }
    const deadline = Date.now() + this.maxWaitMs;
    for (let attempt = 0; ; attempt += 1) {
      // The call's id names its reservation (and, after a crash, its unknown-outcome row).
      const ticket = request.call?.id ?? `call-${this.replica.id}-${(this.counter++).toString(36)}`;
      const granted = await this.query('isobudget_reserve_call', RESERVE_CALL, [this.replica.id, key.id, ticket, wanted, promptTokens, choices, columns.model, columns.endpoint, protocol, columns.stream, columns.sessionId]);
      const row = granted.rows[0] as { tokens: string } | undefined;
      if (row !== undefined) {
        const reservation = Number(row.tokens);
        // The grant is prompt + a whole number of choices' worth: the clamp holds it exactly.
        const clamp = clampRequest(protocol, body, fields, reservation - promptTokens);
        return { ok: true, clamp, reservation, promptTokens, ticket };
      }
      const refusal = await whyNot(this.db, key, promptTokens, choices);
      if (refusal !== undefined) return refusal;
      const gone = request.signal();
      if (gone.aborted) return waitedTooLong(key, promptTokens, 'gone', this.maxWaitMs);
      if (Date.now() >= deadline) return waitedTooLong(key, promptTokens, 'deadline', this.maxWaitMs);
      await this.waiters.next(key.id, deadline, gone, attempt);
    }
  }

  /** A named (prepared) statement: parsed and planned once per connection. */
  private query(name: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
    return budgetQuery(this.db, this.writer, name, text, values);
  }
}
