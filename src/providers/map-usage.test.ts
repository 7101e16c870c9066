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

describe('openai-chat usage', () => {
  test('the provider total wins over the sum of parts', () => {
    expect(mapOpenAIUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 16 }).totalTokens).toBe(16);
  });

  test('non-numeric counts are unknown, and so is a total built from them', () => {
    expect(mapOpenAIUsage({ prompt_tokens: '10', completion_tokens: 5 })).toEqual({ ...UNKNOWN, outputTokens: 5 });
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
