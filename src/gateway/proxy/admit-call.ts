/**
 * Everything a model call must pass before it may go upstream: the data dir must take writes;
 * on a budgeted key, the cap fields and choice count must be integers, the body may hold
 * nothing the gateway cannot bound, and the budget must hold its worst case. Returns the
 * reservation, or the reply the gateway gives itself.
 */
import { finishReason, type FinishReason } from '../../core/finish-reason.js';
import type { Admission, AdmitRequest } from '../budget/key-budgets.js';
import { readBudgetFields, type BudgetFields } from '../budget-fields.js';
import { budgetSpentReply, errorReply, type GatewayReply } from '../error-reply.js';
import type { GatewayContext } from '../gateway-context.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import { estimateBodyTokens } from '../prompt-estimate.js';
import type { Family, GenerationProtocol } from '../routes.js';
import { unestimableField } from '../unestimable-fields.js';

export interface AdmitInput {
  protocol: GenerationProtocol;
  family: Family;
  key: VirtualKey;
  body: Record<string, unknown>;
  text: string;
  /** Aborts when the client goes away (made only if the call has to wait). */
  signal: () => AbortSignal;
  /** The call's id and client session, for stores that keep a row per reservation (Postgres). */
  call?: AdmitRequest['call'];
}

export interface Refusal {
  reply: GatewayReply;
  /** For the ledger; undefined: not recorded (the disk refuses writes). */
  record: { status: number; error: string; note: string; finish: FinishReason } | undefined;
}

export type Admitted = { ok: true; admission: Extract<Admission, { ok: true }>; requested: number | undefined } | { ok: false; refusal: Refusal; requested: number | undefined };

export function admitCall(context: GatewayContext, input: AdmitInput): Admitted | Promise<Admitted> {
  const { protocol, family, key, body } = input;
  const trouble = context.book.trouble();
  if (trouble !== undefined) {
    return { ok: false, requested: undefined, refusal: { reply: errorReply(family, 503, trouble.message, { code: 'gateway_storage_unavailable', headers: { 'retry-after': '5' } }), record: undefined } };
  }
  const read = readBudgetFields(protocol, body);
  const requested = read.ok ? read.fields.requested : undefined;
  // A key without a budget only records: its calls pass as the client sent them.
  if (key.budget === undefined) return { ok: true, requested, admission: { ok: true, clamp: undefined, reservation: 0, promptTokens: 0 } };
  if (!read.ok) return refused(requested, errorReply(family, 400, read.message, { code: 'invalid_budget_field' }), 400, read.message, `'${read.param}' refused`);
  const unestimable = unestimableField(protocol, body);
  if (unestimable !== undefined) {
    const message = `isobudget gateway: this key has a token budget, and ${unestimable} cannot be reserved for; send the request without it, or use a key without a budget`;
    return refused(requested, errorReply(family, 403, message, { code: 'unestimable_field', headers: { 'x-should-retry': 'false' } }), 403, message, 'refused: cannot be estimated');
  }
  const estimate = estimateBodyTokens(body, input.text, context.exactPrompt);
  return typeof estimate === 'number' ? admitWith(context, input, read.fields, estimate, requested) : estimate.then((tokens) => admitWith(context, input, read.fields, tokens, requested));
}

function admitWith(context: GatewayContext, input: AdmitInput, fields: BudgetFields, promptTokens: number, requested: number | undefined): Admitted | Promise<Admitted> {
  const decided = context.budgets.admit({ key: input.key, protocol: input.protocol, body: input.body, fields, promptTokens, signal: input.signal, call: input.call });
  return 'ok' in decided ? judge(input, decided, requested) : decided.then((admission) => judge(input, admission, requested));
}

function judge(input: AdmitInput, admission: Admission, requested: number | undefined): Admitted {
  if (admission.ok) return { ok: true, admission, requested };
  if (admission.reason === 'closed') {
    const message = `isobudget gateway: ${admission.detail}`;
    return refused(requested, errorReply(input.family, 403, message, { code: 'key_closed', headers: { 'x-should-retry': 'false' } }), 403, message, 'denied: key closed');
  }
  return refused(requested, budgetSpentReply(input.family, admission.detail), 429, `budget spent: ${admission.detail}`, 'denied by the gateway', finishReason('budget_exhausted', 'budget_spent'));
}

function refused(requested: number | undefined, reply: GatewayReply, status: number, error: string, note: string, finish = finishReason('error', 'refused')): Admitted {
  return { ok: false, requested, refusal: { reply, record: { status, error, note, finish } } };
}
