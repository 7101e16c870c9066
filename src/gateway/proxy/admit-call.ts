/**
 * Everything a model call must pass before it may go upstream: the data dir must take writes;
 * on a budgeted key, the cap fields and choice count must be integers, the body must hold
 * each key once (its bytes leave as they came, so they must mean what was judged) and
 * nothing the gateway cannot bound, and the budget must hold its worst case. Returns the
 * reservation, or the reply the gateway gives itself.
 */
import { finishReason, type FinishReason } from '../../core/finish-reason.js';
import type { Admission, AdmitRequest } from '../budget/key-budgets.js';
import { readBudgetFields, type BudgetFields } from '../budget-fields.js';
import { budgetSpentReply, errorReply, keyClosedReply, type GatewayReply } from '../error-reply.js';
import type { GatewayContext } from '../gateway-context.js';
import type { VirtualKey } from '../keys/virtual-key.js';
import { billableContent } from '../../estimate/billable-content.js';
import { shapeOf } from '../../estimate/body-shape.js';
import type { EstimateContext, PromptEstimate } from '../../estimate/prompt-estimator.js';
import { billingExtras } from '../billing-extras.js';
import { rawKeyCount, walkBody } from '../body-walk.js';
import { countFreshParts, measureParts, type PartsMeasure } from '../prompt-estimate.js';
import type { RatioTarget } from '../../estimate/billing-ratios.js';
import type { Family, GenerationProtocol } from '../routes.js';
import { unestimableField } from '../unestimable-fields.js';

export interface AdmitInput {
  protocol: GenerationProtocol;
  family: Family;
  key: VirtualKey;
  body: Record<string, unknown>;
  text: string;
  /** Whose last body the next one is compared with (key and client session). */
  memoKey: string;
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

export type Admitted =
  | { ok: true; admission: Extract<Admission, { ok: true }>; requested: number | undefined; /** Undefined for a key without budget (nothing estimated). */ estimate: PromptEstimate | undefined }
  | { ok: false; refusal: Refusal; requested: number | undefined };

export function admitCall(context: GatewayContext, input: AdmitInput): Admitted | Promise<Admitted> {
  const { protocol, family, key, body } = input;
  const trouble = context.book.trouble();
  if (trouble !== undefined) {
    return { ok: false, requested: undefined, refusal: { reply: errorReply(family, 503, trouble.message, { code: 'gateway_storage_unavailable', headers: { 'retry-after': '5' } }), record: undefined } };
  }
  const read = readBudgetFields(protocol, body);
  const requested = read.ok ? read.fields.requested : undefined;
  // A key without a budget only records: its calls pass as the client sent them.
  if (key.budget === undefined) return { ok: true, requested, estimate: undefined, admission: { ok: true, clamp: undefined, reservation: 0, promptTokens: 0 } };
  if (!read.ok) return refused(requested, errorReply(family, 400, read.message, { code: 'invalid_budget_field' }), 400, read.message, `'${read.param}' refused`);
  // One walk of the whole parsed body: its keys, its images, what cannot be bounded.
  const walk = walkBody(body);
  // The bytes that leave are the client's: they must say what the parsed body says.
  if (rawKeyCount(input.text, input.memoKey) !== walk.keys) {
    const message = 'isobudget gateway: this key has a token budget, and the request body holds a duplicate key (JSON readers disagree on which one counts, so the gateway cannot judge what the upstream would bill); send each key once';
    return refused(requested, errorReply(family, 400, message, { code: 'duplicate_key', headers: { 'x-should-retry': 'false' } }), 400, message, 'refused: duplicate key');
  }
  const unestimable = unestimableField(protocol, body, walk);
  if (unestimable !== undefined) {
    return unestimableRefusal(family, requested, unestimable);
  }
  const extras = billingExtras(protocol, body, walk, (id) => context.responses.billed(id));
  if (extras.refuse !== undefined) return unestimableRefusal(family, requested, extras.refuse);
  // What the provider bills as text (not the JSON envelope, not image data) and what its published rules add.
  const billable = billableContent(protocol, body);
  const target = { baseUrl: context.upstreamDisplay, model: typeof body['model'] === 'string' ? body['model'] : 'unknown' };
  // The strings' counts and their share of the body's shape, an unchanged string's from the session's last body.
  const measure = measureParts(billable.parts, input.memoKey);
  const shape = shapeOf({ protocol, chars: measure.chars, sampled: measure.sampled, extraBytes: measure.extraBytes, messages: billable.messages, tools: billable.tools, images: billable.images });
  const scope: EstimateContext = { overhead: billable.overhead, overheadFloor: billable.overheadFloor, shape, keyId: key.id };
  const bounded = measure.fresh.length === 0 ? undefined : boundedEstimate(context, input, read.fields, target, measure, extras.tokens, scope);
  if (bounded !== undefined) return admitWith(context, input, read.fields, bounded, requested);
  const counted = countFreshParts(measure);
  const estimate = (count: number): PromptEstimate => context.estimator.fromCount(target, count, extras.tokens, scope);
  return typeof counted === 'number' ? admitWith(context, input, read.fields, estimate(counted), requested) : counted.then((count) => admitWith(context, input, read.fields, estimate(count), requested));
}

/**
 * New text up to this many characters is counted after its call has gone out, for the next
 * turn's cache and the ratio: a Claude Code session's first body (~50–100 KB) is, a 200 KB
 * blob is not (~50 ms of CPU every other client on the machine would share, for nothing yet).
 */
const BACKGROUND_CHARS = 128 * 1024;

/**
 * New text reserved at its byte bound instead of counted first, when the key can afford that
 * without cutting the client's cap: the call goes upstream at once, and the text is counted
 * off its path (in slices) for the next turn and for learning the ratio. Undefined when the
 * bound would not fit: then the text is counted before admission.
 */
function boundedEstimate(context: GatewayContext, input: AdmitInput, fields: BudgetFields, target: RatioTarget, measure: PartsMeasure, extra: number, scope: EstimateContext): PromptEstimate | undefined {
  // Only a store that knows the key's headroom without a round trip (the embedded one) allows this.
  const remaining = context.budgets.remaining?.(input.key);
  if (fields.requested === undefined || remaining === undefined) return undefined;
  const estimate = context.estimator.fromCount(target, measure.known, extra + measure.freshBound, scope);
  if (remaining - estimate.tokens < fields.requested * fields.choices) return undefined;
  // A large new text is not counted at all (it costs CPU every other client shares, and nothing
  // needs its count): if it is resent, it is reserved at its bound again, or counted then.
  if (measure.freshChars > BACKGROUND_CHARS) return estimate;
  setImmediate(() => {
    void Promise.resolve(countFreshParts(measure)).then((counted) => {
      // Now the count is exact: the settlement may learn from it.
      estimate.counted = counted;
      estimate.extra = extra;
    });
  });
  return estimate;
}

function admitWith(context: GatewayContext, input: AdmitInput, fields: BudgetFields, estimate: PromptEstimate, requested: number | undefined): Admitted | Promise<Admitted> {
  const decided = context.budgets.admit({ key: input.key, protocol: input.protocol, body: input.body, fields, promptTokens: estimate.tokens, signal: input.signal, call: input.call });
  return 'ok' in decided ? judge(input, decided, requested, estimate) : decided.then((admission) => judge(input, admission, requested, estimate));
}

/** A protocol-shaped 400: the body holds something a budgeted key cannot reserve for. */
function unestimableRefusal(family: Family, requested: number | undefined, what: string): Admitted {
  const message = `isobudget gateway: this key has a token budget, and ${what} cannot be reserved for; send the request without it, or use a key without a budget`;
  return refused(requested, errorReply(family, 400, message, { code: 'unestimable_field', headers: { 'x-should-retry': 'false' } }), 400, message, 'refused: cannot be estimated');
}

function judge(input: AdmitInput, admission: Admission, requested: number | undefined, estimate: PromptEstimate): Admitted {
  if (admission.ok) return { ok: true, admission, requested, estimate };
  if (admission.reason === 'closed') {
    const message = `isobudget gateway: ${admission.detail}`;
    const reply = keyClosedReply(input.family, message, input.protocol);
    return refused(requested, reply, reply.status, message, 'denied: key closed');
  }
  const reply = budgetSpentReply(input.family, admission.detail, input.protocol);
  return refused(requested, reply, reply.status, `budget spent: ${admission.detail}`, 'denied by the gateway', finishReason('budget_exhausted', 'budget_spent'));
}

function refused(requested: number | undefined, reply: GatewayReply, status: number, error: string, note: string, finish = finishReason('error', 'refused')): Admitted {
  return { ok: false, requested, refusal: { reply, record: { status, error, note, finish } } };
}
