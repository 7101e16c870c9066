import { describe, expect, test } from 'vitest';
import { KeyStore } from '../keys/key-store.js';
import { readBudgetFields, type BudgetFields } from '../budget-fields.js';
import type { GenerationProtocol } from '../routes.js';
import { KeyBudgets } from './key-budgets.js';

function setup(budget: number | undefined, spent = 0) {
  const store = KeyStore.open(':memory:');
  const { key } = store.create({ budget, tags: {} });
  if (spent > 0) store.addSpent(key.id, spent);
  const fresh = store.get(key.id);
  if (!fresh) throw new Error('key vanished');
  return { store, key: fresh, budgets: new KeyBudgets(store, 2_000) };
}

const never = new AbortController().signal;
const signal = () => never;

function fields(protocol: GenerationProtocol, body: Record<string, unknown>): BudgetFields {
  const read = readBudgetFields(protocol, body);
  if (!read.ok) throw new Error(read.message);
  return read.fields;
}

describe('KeyBudgets', () => {
  test('the output cap is clamped to what is left after the prompt, and the reservation holds it', async () => {
    const { key, budgets } = setup(1000);
    const first = await budgets.admit({ key, protocol: 'anthropic-messages', body: { max_tokens: 128000 }, fields: fields('anthropic-messages', { max_tokens: 128000 }), promptTokens: 100, signal });
    expect(first).toMatchObject({ ok: true, reservation: 1000 });
    expect(first.ok && first.clamp?.body['max_tokens']).toBe(900);
    expect(budgets.remaining(key)).toBe(0);
    budgets.settle(key, 1000, 130);
    expect(budgets.remaining(key)).toBe(870);
  });

  test('blocked only by reservations: a call waits for them to settle instead of being denied', async () => {
    const { key, budgets } = setup(1000);
    const first = budgets.admit({ key, protocol: 'anthropic-messages', body: { max_tokens: 128000 }, fields: fields('anthropic-messages', { max_tokens: 128000 }), promptTokens: 100, signal });
    if (!('ok' in first)) throw new Error('the first call is admitted at once');
    const waiting = Promise.resolve(budgets.admit({ key, protocol: 'anthropic-messages', body: { max_tokens: 50 }, fields: fields('anthropic-messages', { max_tokens: 50 }), promptTokens: 100, signal }));
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    budgets.settle(key, first.ok ? first.reservation : 0, 200);
    expect(await waiting).toMatchObject({ ok: true, reservation: 150 });
  });

  test('spent means settled: with no room for the prompt the call is denied at once', async () => {
    const { key, budgets } = setup(1000, 950);
    const denied = await budgets.admit({ key, protocol: 'anthropic-messages', body: { max_tokens: 10 }, fields: fields('anthropic-messages', { max_tokens: 10 }), promptTokens: 60, signal });
    expect(denied.ok).toBe(false);
    expect(!denied.ok && denied.detail).toContain('950 spent');
  });

  test('unknown usage books the whole reservation', async () => {
    const { key, budgets, store } = setup(1000);
    const admitted = await budgets.admit({ key, protocol: 'openai-responses', body: {}, fields: fields('openai-responses', {}), promptTokens: 100, signal });
    expect(budgets.settle(key, admitted.ok ? admitted.reservation : 0, undefined)).toBeUndefined();
    expect(budgets.remaining(key)).toBe(0);
    expect(store.get(key.id)?.closed).toBeUndefined();
  });

  test('many concurrent admissions never reserve more than B', async () => {
    const { key, budgets } = setup(5000);
    const admissions = await Promise.all(Array.from({ length: 50 }, () => budgets.admit({ key, protocol: 'openai-chat', body: { max_tokens: 300 }, fields: fields('openai-chat', { max_tokens: 300 }), promptTokens: 80, signal: () => AbortSignal.timeout(100) })));
    const reserved = admissions.reduce((sum, a) => sum + (a.ok ? a.reservation : 0), 0);
    expect(reserved).toBeLessThanOrEqual(5000);
    expect(admissions.filter((a) => a.ok)).toHaveLength(13); // ⌊5000 / 380⌋
  });

  test('a key without a budget is admitted unclamped', async () => {
    const { key, budgets } = setup(undefined);
    expect(await budgets.admit({ key, protocol: 'anthropic-messages', body: { max_tokens: 128000 }, fields: undefined, promptTokens: 0, signal })).toEqual({ ok: true, clamp: undefined, reservation: 0, promptTokens: 0 });
  });

  test('a bill above its reservation closes the key at once, in memory and in the store', async () => {
    const { key, budgets, store } = setup(10_000);
    const admitted = await budgets.admit({ key, protocol: 'openai-chat', body: { max_tokens: 100 }, fields: fields('openai-chat', { max_tokens: 100 }), promptTokens: 50, signal });
    expect(admitted).toMatchObject({ ok: true, reservation: 150 });
    expect(budgets.settle(key, 150, 400)).toBe(250);
    expect(store.get(key.id)).toMatchObject({ closed: 'over_reservation', overReservation: 250 });
    // The key object a request still carries says nothing: the gateway knows anyway.
    const next = await budgets.admit({ key, protocol: 'openai-chat', body: { max_tokens: 10 }, fields: fields('openai-chat', { max_tokens: 10 }), promptTokens: 5, signal });
    expect(next).toMatchObject({ ok: false, reason: 'closed' });
    expect(!next.ok && next.detail).toContain('over_reservation');
  });
});
