import { describe, expect, test } from 'vitest';
import type { CallBook } from './call-book.js';
import type { Reservation } from './durable/spend-journal.js';
import { intentBook } from './intent-book.js';

const reservation = (callId: string): Reservation => ({ callId, keyId: 'k1', tokens: 120, model: 'm', endpoint: '/v1/chat/completions', protocol: 'openai-chat', stream: false, sessionId: undefined, ts: '2026-01-01T00:00:00.000Z', maxTokens: 64 });

function innerBook(order: string[]): CallBook {
  return {
    reserve(r) {
      order.push(`inner ${r.callId}`);
      return true;
    },
    finish: (record) => order.push(`finish ${record.call_id ?? ''}`),
    trouble: () => undefined,
  };
}

describe('intentBook', () => {
  test('the inner reservation (and so the request) waits until the intent is written', async () => {
    const order: string[] = [];
    let written: () => void = () => {};
    const book = intentBook(innerBook(order), (r) => new Promise<void>((resolve) => {
      written = () => {
        order.push(`written ${r.callId} ${r.tokens}`);
        resolve();
      };
    }));
    const reserved = book.reserve(reservation('c1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    written();
    expect(await reserved).toBe(true);
    expect(order).toEqual(['written c1 120', 'inner c1']);
  });

  test('a failed write refuses the call, and new calls for 5 s, with one line naming why', async () => {
    let clock = 1_000;
    let fail = true;
    const order: string[] = [];
    const book = intentBook(innerBook(order), async () => {
      if (fail) throw new Error('connection terminated\n    at stack line');
    }, () => clock);
    expect(await book.reserve(reservation('c1'))).toBe(false);
    expect(order).toEqual([]);
    expect(book.trouble()?.message).toBe('isobudget gateway: cannot record the call before it leaves (connection terminated)');
    clock += 4_999;
    expect(book.trouble()).toBeDefined();
    clock += 1;
    expect(book.trouble()).toBeUndefined();
    fail = false;
    expect(await book.reserve(reservation('c2'))).toBe(true);
    expect(order).toEqual(['inner c2']);
  });
});
