/** What a gateway store's budgets answer: admission of a call, and the types of its reservation. */
import type { BudgetFields } from '../budget-fields.js';
import type { ClampResult } from '../clamp-request.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import type { GenerationProtocol } from '../routes.js';

export type Admission =
  | {
      ok: true; clamp: ClampResult | undefined; reservation: number; /** The prompt estimate inside the reservation (tokens; 0 without a budget). */ promptTokens: number;
      /** The store's name for this reservation (a Postgres row); undefined for the embedded budgets. */ ticket?: string;
    }
  | { ok: false; reason: 'spent' | 'closed'; detail: string };

export interface AdmitRequest {
  key: VirtualKey;
  protocol: GenerationProtocol;
  body: Record<string, unknown>;
  /** The body's cap fields and choices, already checked (readBudgetFields); undefined for a key without budget. */
  fields: BudgetFields | undefined;
  /** Prompt estimate with margin (tokens). */
  promptTokens: number;
  /** Aborts when the client goes away; asked for only when the call has to wait (an AbortController per request is not free). */
  signal: () => AbortSignal;
  /** The call's id and client session: a Postgres reservation row carries them, so a crash leaves a record naming the call. */
  call?: { id: string; sessionId: string | undefined } | undefined;
}

/** Tokens billed beyond the reservation, when there were any. */
export type OverReservation = number | undefined;

/**
 * Reserve-then-settle per key. `ticket` names a reservation where the store keeps one per
 * call (Postgres); the embedded budgets need only the amount.
 */
export interface Budgets {
  /** Admits at once when it can; a promise when it must ask the database or wait for budget. */
  admit(request: AdmitRequest): Admission | Promise<Admission>;
  /** The call was answered: `billed` (undefined: unknown, the reservation is booked). Returns tokens billed beyond the reservation. */
  settle(key: VirtualKey, reservation: number, billed: number | undefined, ticket?: string): OverReservation;
  /** The call billed nothing (never left, or refused upstream before generating). */
  release(key: VirtualKey, reservation: number, ticket?: string): void;
  /** Tokens neither spent nor reserved, where the store knows it without a round trip (undefined: no budget). */
  remaining?(key: VirtualKey): number | undefined;
}
