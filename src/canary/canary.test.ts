import { describe, expect, test } from 'vitest';
import { analyzeCanary } from './analyze.js';
import { assignCanary, canaryBucket } from './assign.js';
import { parseEvents } from './events.js';
import { summarizeFailures } from './failures.js';
import { DEFAULT_POLICY, parsePolicy } from './policy.js';
import { renderCanary } from './render.js';
import { syntheticEvents, type StreamSpec, type VariantProfile } from './synthetic-events.js';

const BASE: VariantProfile = { pass: 0.8, tokens: 1200, latencyMs: 900, negative: 0.05 };
const stream = (override?: StreamSpec['override'], days = 7): string =>
  syntheticEvents({ start: '2026-06-01T00:00:00Z', days, perDay: { control: 1800, canary: 600 }, profile: { control: BASE, canary: BASE }, ...(override ? { override } : {}) })
    .map((e) => JSON.stringify(e))
    .join('\n');
const analyze = (text: string, policy = DEFAULT_POLICY) => analyzeCanary(parseEvents(text, 'events.jsonl'), policy);

describe('canary assign', () => {
  test('sticky: the same key and salt give the same variant; another salt redraws', () => {
    for (const key of ['alice', 'bob', 'user-42', '']) {
      expect(assignCanary(key, 0.1)).toEqual(assignCanary(key, 0.1));
      expect(canaryBucket(key, 'a')).not.toBe(canaryBucket(key, 'b'));
    }
  });

  test.each([0.01, 0.1, 0.5])('fraction %s: within ±1 percentage point over 100,000 keys, and raising it only adds keys', (fraction) => {
    let inCanary = 0;
    let movedOut = 0;
    for (let i = 0; i < 100_000; i++) {
      const small = assignCanary(`user-${i}`, fraction).variant === 'canary';
      const large = assignCanary(`user-${i}`, Math.min(1, fraction * 1.5)).variant === 'canary';
      if (small) inCanary += 1;
      if (small && !large) movedOut += 1;
    }
    expect(Math.abs(inCanary / 100_000 - fraction)).toBeLessThan(0.01);
    expect(movedOut).toBe(0);
  });

  test('fraction outside [0, 1] is refused', () => {
    expect(() => assignCanary('k', 1.5)).toThrow(RangeError);
  });
});

describe('canary analyze', () => {
  test('a clean week → promote, with every day checked', () => {
    const result = analyze(stream());
    expect(result.decision).toBe('promote');
    expect(result.daysObserved).toBe(7);
    expect(result.breaches).toEqual([]);
    expect(result.days.every((d) => d.dailyChecked && d.cumulativeChecked)).toBe(true);
    expect(renderCanary(result)).toContain('decision: PROMOTE');
  });

  test('three clean days → continue (the policy wants 7)', () => {
    const result = analyze(stream(undefined, 3));
    expect(result.decision).toBe('continue');
    expect(result.reason).toContain('day 3 of 7');
  });

  test('a P0 breach of the pass rate on day 3 → rollback naming the metric and the day', () => {
    const result = analyze(stream((day, variant) => (day === 3 && variant === 'canary' ? { pass: 0.6 } : undefined)));
    expect(result.decision).toBe('rollback');
    expect(result.breaches[0]).toMatchObject({ metric: 'same_budget_pass_rate', day: 3, date: '2026-06-03', scope: 'day' });
    expect(result.days.slice(0, 2).every((d) => d.breaches.length === 0)).toBe(true);
    expect(result.reason).toContain('same_budget_pass_rate');
    expect(result.reason).toContain('day 3');
  });

  test.each([
    { metric: 'tokens_per_success', change: { tokens: 1800 } },
    { metric: 'p95_latency', change: { latencyMs: 1500 } },
    { metric: 'negative_feedback_rate', change: { negative: 0.15 } },
  ])('a breach of $metric from day 3 → rollback naming it', ({ metric, change }) => {
    const result = analyze(stream((day, variant) => (day >= 3 && variant === 'canary' ? change : undefined)));
    expect(result.decision).toBe('rollback');
    expect(result.breaches[0]?.metric).toBe(metric);
    expect(result.breaches[0]?.day).toBe(3);
  });

  test('no real change: over 30 seeded canaries at most one false rollback (looks are Bonferroni-adjusted)', () => {
    let rollbacks = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const events = syntheticEvents({ start: '2026-06-01T00:00:00Z', days: 7, perDay: { control: 450, canary: 150 }, profile: { control: BASE, canary: BASE }, seed });
      if (analyze(events.map((e) => JSON.stringify(e)).join('\n')).decision === 'rollback') rollbacks += 1;
    }
    expect(rollbacks).toBeLessThanOrEqual(1);
  });

  test('a small, insignificant wobble below the threshold is not a breach', () => {
    const result = analyze(stream((_, variant) => (variant === 'canary' ? { pass: 0.79, tokens: 1250 } : undefined)));
    expect(result.decision).toBe('promote');
  });

  test('a day with too few events is not checked on its own', () => {
    const text = syntheticEvents({ start: '2026-06-01T00:00:00Z', days: 1, perDay: { control: 20, canary: 5 }, profile: { control: BASE, canary: { ...BASE, pass: 0 } } })
      .map((e) => JSON.stringify(e))
      .join('\n');
    const result = analyze(text);
    expect(result.days[0]?.dailyChecked).toBe(false);
    expect(result.decision).toBe('continue');
  });
});

describe('canary failures keep budget and n', () => {
  const event = (caseId: string, n: number, passed: boolean, hour: number): string => JSON.stringify({ variant: 'canary', timestamp: `2026-06-01T${String(hour).padStart(2, '0')}:00:00Z`, passed, tokens: 100, latency_ms: 10, n, budget: 8000, case_id: caseId });
  const text = [
    event('flaky', 1, false, 1),
    event('flaky', 8, true, 2),
    event('hard', 1, false, 3),
    event('hard', 8, false, 4),
    event('once', 1, false, 5),
    event('fine', 1, true, 6),
  ].join('\n');

  test('failed only at n=1 and gone at n=8 → sampling randomness; still failing at n=8 → persistent', () => {
    const summary = summarizeFailures(parseEvents(text, 'e.jsonl'));
    const label = (id: string): string | undefined => summary.cases.find((c) => c.caseId === id)?.label;
    expect(label('flaky')).toBe('sampling_randomness');
    expect(label('hard')).toBe('persistent');
    expect(label('once')).toBe('unretried');
    expect(label('fine')).toBeUndefined();
    expect(summary.cases.find((c) => c.caseId === 'hard')?.failures).toEqual([
      { budget: 8000, n: 1, time: Date.parse('2026-06-01T03:00:00Z') },
      { budget: 8000, n: 8, time: Date.parse('2026-06-01T04:00:00Z') },
    ]);
    expect(summary.byBudgetAndN).toEqual([
      { variant: 'canary', budget: 8000, n: 1, failures: 3, events: 4 },
      { variant: 'canary', budget: 8000, n: 8, failures: 1, events: 2 },
    ]);
  });

  test('the rendered analysis names the labels', () => {
    const out = renderCanary(analyzeCanary(parseEvents(text, 'e.jsonl'), DEFAULT_POLICY));
    expect(out).toContain('sampling randomness');
    expect(out).toContain('flaky (canary): failed at n=1 B=8,000');
  });
});

describe('canary input errors name file, line and key', () => {
  test('events', () => {
    const bad = ['{"variant":"canary","timestamp":"2026-06-01T00:00:00Z","passed":true,"tokens":1,"latency_ms":1,"n":1,"budget":10}', '{"variant":"blue","passed":true}', 'not json'].join('\n');
    expect(() => parseEvents(bad, 'ev.jsonl')).toThrow(/ev\.jsonl:2: variant: must be one of/);
    expect(() => parseEvents(bad, 'ev.jsonl')).toThrow(/ev\.jsonl:3: invalid JSON/);
  });

  test('policy: defaults fill what is missing; unknown keys are refused with their line', () => {
    const policy = parsePolicy('days: 14\np0:\n  p95_latency_growth: 1.5\n', 'canary.yaml');
    expect(policy.days).toBe(14);
    expect(policy.p0.p95LatencyGrowth).toBe(1.5);
    expect(policy.p0.tokensPerSuccessGrowth).toBe(1.15);
    expect(() => parsePolicy('days: 7\np0:\n  latency: 2\n', 'canary.yaml')).toThrow(/canary\.yaml:3:\d+: p0(\.latency)?: /);
  });
});
