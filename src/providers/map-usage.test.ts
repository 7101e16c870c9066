/** The three usage mappings side by side: unknown stays undefined, never 0. */
import { describe, expect, test } from 'vitest';
import { mapAnthropicUsage } from './anthropic-messages/map-anthropic-usage.js';
import { mapOpenAIUsage } from './openai-chat/map-openai-usage.js';
import { mapResponsesUsage } from './openai-responses/map-responses-usage.js';

const UNKNOWN = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined, cachedTokens: undefined, reasoningTokens: undefined };

describe.each([
  ['openai-chat', mapOpenAIUsage],
  ['openai-responses', mapResponsesUsage],
  ['anthropic-messages', mapAnthropicUsage],
])('%s usage', (_protocol, map) => {
  test.each([undefined, null, 'usage', 42, []])('%o → every field undefined', (usage) => {
    expect(map(usage)).toEqual(UNKNOWN);
  });

  test('an empty object → every field undefined', () => {
    expect(map({})).toEqual(UNKNOWN);
  });

  test('does not return a shared frozen object', () => {
    const usage = map(undefined);
    expect(Object.isFrozen(usage)).toBe(false);
  });
});

// An upstream that is buggy or hostile (issue 20 item 6): a count that is not a non-negative
// integer is no count, and the usage is unknown — the caller books the reservation, never a credit.
describe.each([
  ['openai-chat', mapOpenAIUsage, (p: unknown, c: unknown) => ({ prompt_tokens: p, completion_tokens: c, total_tokens: 100 })],
  ['openai-responses', mapResponsesUsage, (p: unknown, c: unknown) => ({ input_tokens: p, output_tokens: c, total_tokens: 100 })],
  ['anthropic-messages', mapAnthropicUsage, (p: unknown, c: unknown) => ({ input_tokens: p, output_tokens: c })],
])('%s usage sanity', (_protocol, map, body) => {
  test.each([
    ['a negative completion', 2532, -2532],
    ['a negative prompt', -10, 50],
    ['a fractional count', 10.5, 50],
    ['an infinite-looking count', 10, 1e300],
  ])('%s → unknown', (_name, prompt, completion) => {
    expect(map(body(prompt, completion))).toEqual(UNKNOWN);
  });

  test('sane counts pass unchanged', () => {
    expect(map(body(40, 60)).totalTokens).toBe(100);
  });
});

describe('usage sanity in nested fields', () => {
  test('a negative Anthropic cache read cannot lower the prompt', () => {
    expect(mapAnthropicUsage({ input_tokens: 3000, cache_read_input_tokens: -2990, output_tokens: 5 })).toEqual(UNKNOWN);
  });

  test('a negative cached or reasoning detail makes the usage unknown', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: -4 } })).toEqual(UNKNOWN);
    expect(mapResponsesUsage({ input_tokens: 10, output_tokens: 5, output_tokens_details: { reasoning_tokens: 1.5 } })).toEqual(UNKNOWN);
  });

  test('null details are absent, not bad', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: null } }).totalTokens).toBe(15);
  });
});

describe('openai-chat usage', () => {
  test('the provider total wins over the sum of parts', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 16 }).totalTokens).toBe(16);
  });

  test('a non-numeric count makes the whole usage unknown', () => {
    expect(mapOpenAIUsage({ prompt_tokens: '10', completion_tokens: 5 })).toEqual(UNKNOWN);
  });

  test('a total below the sum of its parts is raised to the sum', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 1000, completion_tokens: 1532, total_tokens: 12 }).totalTokens).toBe(2532);
  });

  test('zero is a real zero', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cachedTokens: 0,
      reasoningTokens: undefined,
    });
  });
});

describe('anthropic usage', () => {
  test('input = input_tokens + cache writes + cache reads', () => {
    expect(
      mapAnthropicUsage({ input_tokens: 3, cache_creation_input_tokens: 1000, cache_read_input_tokens: 2000, output_tokens: 50 }),
    ).toEqual({ inputTokens: 3003, outputTokens: 50, totalTokens: 3053, cachedTokens: 2000, reasoningTokens: undefined });
  });

  test('absent cache fields count as 0 when input_tokens is present', () => {
    expect(mapAnthropicUsage({ input_tokens: 3, output_tokens: 4 })).toMatchObject({ inputTokens: 3, totalTokens: 7, cachedTokens: undefined });
  });

  test('cache fields alone do not make the input known', () => {
    expect(mapAnthropicUsage({ cache_read_input_tokens: 2000, output_tokens: 4 })).toEqual({
      ...UNKNOWN,
      outputTokens: 4,
      cachedTokens: 2000,
    });
  });
});
