import { describe, expect, test } from 'vitest';
import { BillingRatios, MIN_LEARNING_COUNT, MIN_SIMILAR_CALLS, PROMPT_OVERHEAD, PUBLISHED_RATIO, RATIO_MARGIN, SEED_RATIO } from './billing-ratios.js';
import { PromptCountCache } from './prompt-count-cache.js';
import { COUNTED_MARGIN, PromptEstimator } from './prompt-estimator.js';

const router = { baseUrl: 'https://router.example/v1', model: 'qwen-max' };
const other = { baseUrl: 'https://router.example/v1', model: 'claude-sonnet' };

describe('PromptEstimator', () => {
  test('a target never seen is reserved with the seed ratio plus the fixed overhead', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    const estimate = estimator.fromCount(router, 300);
    expect(estimate.tokens).toBe(Math.ceil(300 * SEED_RATIO) + PROMPT_OVERHEAD);
    expect(estimate).toMatchObject({ counted: 300, ratio: SEED_RATIO, source: 'learned_ratio', extra: 0 });
  });

  test('published overheads are reserved as they are, beside the ratio; the floor of them is taken off a bill before it teaches', () => {
    const ratios = new BillingRatios();
    const estimator = new PromptEstimator(ratios, false);
    const context = { overhead: 1046, overheadFloor: 1046, shape: 's', keyId: 'k' };
    const estimate = estimator.fromCount(router, 400, 0, context);
    expect(estimate.tokens).toBe(Math.ceil(400 * SEED_RATIO) + PROMPT_OVERHEAD + 1046);
    estimator.settle(router, estimate, 1046 + 520);
    // 520 / 400 = 1.3 learned for (router, 's'), not 1566 / 400.
    for (let i = 0; i < MIN_SIMILAR_CALLS; i += 1) estimator.settle(router, estimator.fromCount(router, 400, 0, context), 1046 + 520);
    expect(estimator.factor(router, context)).toBeCloseTo(1.3 * (1 + RATIO_MARGIN), 4);
  });

  test(`settled calls raise the factor for every key at once, but lower it only for a key with ${MIN_SIMILAR_CALLS} settled calls of its own, in their shape`, () => {
    const ratios = new BillingRatios();
    const estimator = new PromptEstimator(ratios, false);
    const teacher = { shape: 'short', keyId: 'a' };
    for (let i = 0; i < MIN_SIMILAR_CALLS - 1; i += 1) estimator.settle(router, estimator.fromCount(router, 300, 0, teacher), 200);
    expect(estimator.factor(router, teacher)).toBe(SEED_RATIO);
    estimator.settle(router, estimator.fromCount(router, 300, 0, teacher), 200);
    expect(estimator.factor(router, teacher)).toBeCloseTo((200 / 300) * (1 + RATIO_MARGIN), 4);
    // Another key of the same shape, the same key in another shape, another model: the bound.
    expect(estimator.factor(router, { shape: 'short', keyId: 'b' })).toBe(SEED_RATIO);
    expect(estimator.factor(router, { shape: 'prose', keyId: 'a' })).toBe(SEED_RATIO);
    expect(estimator.factor(other, teacher)).toBe(SEED_RATIO);
    // One call billed worse raises the factor for every key of the shape, the teacher included.
    estimator.settle(router, estimator.fromCount(router, 300, 0, { shape: 'short', keyId: 'c' }), 600);
    expect(estimator.factor(router, { shape: 'short', keyId: 'b' })).toBeCloseTo(2 * (1 + RATIO_MARGIN), 4);
    expect(estimator.factor(router, teacher)).toBeCloseTo(2 * (1 + RATIO_MARGIN), 4);
    expect(ratios.calls(router)).toBe(MIN_SIMILAR_CALLS + 1);
    expect(ratios.calls(router, teacher)).toBe(MIN_SIMILAR_CALLS);
  });

  test('a model that bills with o200k (OpenAI’s published tokenizer) is bounded at ratio 1, not the seed', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    expect(estimator.factor({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' })).toBe(PUBLISHED_RATIO);
    expect(estimator.factor({ baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4.1' })).toBe(PUBLISHED_RATIO);
    expect(estimator.factor({ baseUrl: 'https://openrouter.ai/api/v1', model: 'anthropic/claude-sonnet-4' })).toBe(SEED_RATIO);
  });

  test('a ratio learned on a short prompt covers longer ones billed r·c + t (the template included)', () => {
    const estimator = new PromptEstimator(new BillingRatios(), false);
    const bill = (counted: number): number => Math.ceil(1.45 * counted) + 40;
    for (let i = 0; i < MIN_SIMILAR_CALLS; i += 1) estimator.settle(router, estimator.fromCount(router, 64), bill(64));
    expect(estimator.factor(router)).toBeGreaterThan(1.45);
    for (const counted of [64, 100, 1000, 50_000]) expect(estimator.fromCount(router, counted).tokens).toBeGreaterThanOrEqual(bill(counted));
  });

  test('extra tokens (images, a continued response) are reserved as they are and teach no ratio', () => {
    const ratios = new BillingRatios();
    const estimator = new PromptEstimator(ratios, false);
    const estimate = estimator.fromCount(router, 300, 765);
    expect(estimate.tokens).toBe(Math.ceil(300 * SEED_RATIO) + PROMPT_OVERHEAD + 765);
    estimator.settle(router, estimate, 1300);
    expect(ratios.calls(router)).toBe(0);
  });

  test(`prompts under ${MIN_LEARNING_COUNT} counted tokens teach nothing; missing usage teaches nothing`, () => {
    const ratios = new BillingRatios();
    const estimator = new PromptEstimator(ratios, false);
    estimator.settle(router, estimator.fromCount(router, 5), 30);
    estimator.settle(router, estimator.fromCount(router, 300), undefined);
    expect(ratios.calls(router)).toBe(0);
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
