import { describe, expect, test } from 'vitest';
import { RateLimiter } from './pool.js';

describe('request pacing (rate_limit.requests_per_second)', () => {
  test('starts follow slots one interval apart, each no later than half an interval after its slot', async () => {
    const limiter = new RateLimiter(20);
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 6 }, () => limiter.wait().then(() => starts.push(performance.now()))));
    // Any two starts k slots apart: at least k intervals (50 ms) less one half interval.
    for (let i = 0; i < starts.length; i += 1) {
      for (let j = i + 1; j < starts.length; j += 1) expect(starts[j]! - starts[i]!, `starts ${i}..${j}`).toBeGreaterThanOrEqual((j - i) * 50 - 25);
    }
  });

  test('a process stalled past its slots does not start their requests at once', async () => {
    const limiter = new RateLimiter(10);
    await limiter.wait();
    const starts: number[] = [];
    const lanes = [0, 1].map(() => limiter.wait().then(() => starts.push(performance.now())));
    // Both slots (100 and 200 ms ahead) pass while the process is busy: both timers fire together.
    for (const until = performance.now() + 350; performance.now() < until; );
    await Promise.all(lanes);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(50);
  });
});
