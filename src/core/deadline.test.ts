import { describe, expect, test } from 'vitest';
import { deadline } from './deadline.js';

const aborted = (signal: AbortSignal): Promise<unknown> => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));

describe('deadline', () => {
  test('aborts with a TimeoutError naming the operation and the limit', async () => {
    const limit = deadline(new AbortController().signal, 20, 'tool call');
    const reason = await aborted(limit.signal);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('TimeoutError');
    expect((reason as DOMException).message).toBe('tool call timed out after 20 ms');
  });

  test('follows the parent, keeping its reason', async () => {
    const parent = new AbortController();
    const limit = deadline(parent.signal, 60_000);
    parent.abort(new Error('ctrl-c'));
    expect(limit.signal.aborted).toBe(true);
    expect((limit.signal.reason as Error).message).toBe('ctrl-c');
    limit.clear();
  });

  test('an already aborted parent gives an already aborted signal', () => {
    const parent = new AbortController();
    parent.abort('gone');
    expect(deadline(parent.signal, 60_000).signal.reason).toBe('gone');
  });

  test('clear() stops both the timer and the parent link', async () => {
    const parent = new AbortController();
    const limit = deadline(parent.signal, 10);
    limit.clear();
    await new Promise((resolve) => setTimeout(resolve, 40));
    parent.abort();
    expect(limit.signal.aborted).toBe(false);
  });
});
