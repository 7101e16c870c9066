/** The real_evolution reason quotes n=1 numbers for "Best-of-N off" (issue 24 item 8). */
import { expect, test } from 'vitest';
import { fakeVerdict } from '../memory/test-support/fixtures.js';
import { explain } from './reason.js';

test('"holds with Best-of-N off" quotes the n=1 pass rates and delta, not selected@N', () => {
  const record = fakeVerdict({ run_id: 'r', verdict: 'real_evolution', delta: 0.11, ci95: [0.04, 0.18], bestOfN: { n: 8, delta: 0.24, bestofnRatio: 1.02 } });
  const reason = explain(record);
  expect(reason).toContain('it holds with Best-of-N off (n=1: pass@1 60.0% → 71.0%, +11.0 pts [+4.0 pts, +18.0 pts])');
  expect(reason).toContain('; with Best-of-8 on, selected@8 +24.0 pts');
  expect(reason).not.toMatch(/Best-of-N off \(selected@/);
});
