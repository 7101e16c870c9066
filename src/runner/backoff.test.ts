import { expect, test } from 'vitest';
import { backoffDelay } from './backoff.js';

const policy = { initialDelayMs: 100, maxDelayMs: 2000 };

test.each([
  { attempt: 1, random: 0.5, expected: 50 },
  { attempt: 2, random: 0.5, expected: 100 },
  { attempt: 3, random: 0.999, expected: 399 },
  { attempt: 10, random: 0.5, expected: 1000 },
])('full jitter: attempt $attempt', ({ attempt, random, expected }) => {
  expect(backoffDelay(policy, attempt, random)).toBe(expected);
});

test('Retry-After wins, capped at the maximum delay', () => {
  expect(backoffDelay(policy, 1, 0.5, 1500)).toBe(1500);
  expect(backoffDelay(policy, 1, 0.5, 60_000)).toBe(2000);
  expect(backoffDelay(policy, 1, 0.5, 0)).toBe(0);
});
