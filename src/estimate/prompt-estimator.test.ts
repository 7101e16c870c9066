import { describe, expect, test } from 'vitest';
import { BillingRatios, MIN_LEARNING_COUNT, PROMPT_OVERHEAD, RATIO_MARGIN, SEED_RATIO } from './billing-ratios.js';
import { PromptCountCache } from './prompt-count-cache.js';
import { COUNTED_MARGIN, PromptEstimator } from './prompt-estimator.js';

const router = { baseUrl: 'https://router.example/v1', model: 'qwen-max' };
const other = { baseUrl: 'https://router.example/v1', model: 'claude-sonnet' };

describe('PromptEstimator', () => {
  test('a target never seen is reserved with the seed ratio plus the fixed overhead', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    expect(estimator.fromCount(router, 300)).toEqual({ tokens: Math.ceil(300 * SEED_RATIO) + PROMPT_OVERHEAD, counted: 300, ratio: SEED_RATIO, source: 'learned_ratio', extra: 0 });
  });

  test('settled calls teach the worst billed/counted ratio, per (base URL, model), plus the margin', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    for (const [counted, billed] of [[300, 420], [200, 300], [500, 650]] as const) estimator.settle(router, estimator.fromCount(router, counted), billed);
    // Worst of 1.4, 1.5, 1.3.
    const factor = estimator.factor(router);
    expect(factor).toBeCloseTo(1.5 * (1 + RATIO_MARGIN), 4);
    expect(estimator.fromCount(router, 1000).tokens).toBe(Math.ceil(1000 * factor) + PROMPT_OVERHEAD);
    // Another model behind the same URL has learned nothing.
    expect(estimator.factor(other)).toBe(SEED_RATIO);
  });

  test('a ratio learned on a short prompt covers longer ones billed r·c + t (the template included)', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    const bill = (counted: number): number => Math.ceil(1.45 * counted) + 40;
    estimator.settle(router, estimator.fromCount(router, 64), bill(64));
    for (const counted of [64, 100, 1000, 50_000]) expect(estimator.fromCount(router, counted).tokens).toBeGreaterThanOrEqual(bill(counted));
  });

  test('extra tokens (images, a continued response) are reserved as they are and teach no ratio', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    const estimate = estimator.fromCount(router, 300, 765);
    expect(estimate.tokens).toBe(Math.ceil(300 * SEED_RATIO) + PROMPT_OVERHEAD + 765);
    estimator.settle(router, estimate, 1300);
    expect(estimator.factor(router)).toBe(SEED_RATIO);
  });

  test(`prompts under ${MIN_LEARNING_COUNT} counted tokens teach nothing; missing usage teaches nothing`, () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    estimator.settle(router, estimator.fromCount(router, 5), 30);
    estimator.settle(router, estimator.fromCount(router, 300), undefined);
    expect(estimator.factor(router)).toBe(SEED_RATIO);
  });

  test('exact when the upstream bills with o200k; a provider count gets its own small margin and is not learned from', () => {
    const exact = new PromptEstimator(new BillingRatios(), true);
    expect(exact.fromCount(router, 300)).toEqual({ tokens: 300, counted: 300, ratio: 1, source: 'exact', extra: 0 });
    const ratios = new BillingRatios();
    const counted = new PromptEstimator(ratios, false);
    const estimate = counted.fromProviderCount(300, 450);
    expect(estimate).toEqual({ tokens: Math.ceil(450 * (1 + COUNTED_MARGIN)), counted: 300, ratio: undefined, source: 'provider_count' });
    counted.settle(router, estimate, 450);
    expect(ratios.calls(router)).toBe(0);
  });
});

describe('PromptCountCache', () => {
  test('one count per prompt; an upstream without the endpoint is asked once, then never', async () => {
    const cache = new PromptCountCache();
    let asked = 0;
    const count = async (): Promise<number> => {
      asked += 1;
      return 123;
    };
    const prompt = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(await cache.count('a', prompt, count)).toBe(123);
    expect(await cache.count('a', { ...prompt }, count)).toBe(123);
    expect(asked).toBe(1);
    expect(await cache.count('a', { ...prompt, model: 'n' }, count)).toBe(123);
    expect(asked).toBe(2);
    const failing = async (): Promise<number> => {
      asked += 1;
      throw Object.assign(new Error('Not Found'), { status: 404 });
    };
    expect(await cache.count('b', prompt, failing)).toBeUndefined();
    expect(await cache.count('b', { other: 1 }, failing)).toBeUndefined();
    expect(asked).toBe(3);
  });

  test('a failing count (429, a timeout) is tried again, up to three times per base URL', async () => {
    const cache = new PromptCountCache();
    let asked = 0;
    const busy = async (): Promise<number> => {
      asked += 1;
      throw Object.assign(new Error('rate limited'), { status: 429 });
    };
    for (let i = 0; i < 5; i += 1) expect(await cache.count('c', { prompt: i }, busy)).toBeUndefined();
    expect(asked).toBe(3);
  });
});
