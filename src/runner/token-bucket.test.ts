import { describe, expect, test } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('tokens_per_minute bucket', () => {
  test('a full minute passes at once; the overdraft waits debt ÷ rate', async () => {
    let now = 0;
    const bucket = new TokenBucket(60_000, () => now); // 1 token per ms
    const started = performance.now();
    await bucket.take(60_000);
    expect(performance.now() - started).toBeLessThan(20);
    const again = performance.now();
    await bucket.take(80); // 80 tokens of debt at 1/ms: 80 ms
    expect(performance.now() - again).toBeGreaterThanOrEqual(75);
    now += 30_000; // half a minute refills half the bucket, less the debt
    const later = performance.now();
    await bucket.take(29_000);
    expect(performance.now() - later).toBeLessThan(20);
  });
});
